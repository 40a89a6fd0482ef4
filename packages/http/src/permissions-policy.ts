// No page or answer of EJ Desk uses the camera, the microphone, location, payment or devices: one
// Permissions-Policy for the API, the shell and the remotes.
export const permissionsPolicy = 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=()';
