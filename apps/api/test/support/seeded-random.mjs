// Loaded into Portman's process: its example values come from Math.random, so a fixed seed makes
// the fuzz collection the same on every run (a failure can be run again and looked at).
let state = 0x2f6b1a3d;
Math.random = () => {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 2 ** 32;
};
