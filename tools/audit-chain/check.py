#!/usr/bin/env python3
"""Check an EJ Desk audit chain file (GET /api/admin/audit-log/chain/) without EJ Desk.

Usage: python3 check.py audit_log_chain.jsonl [--public-key key.pem]

Needs only Python 3 and openssl (1.1.1 or later, for Ed25519). It recomputes every entry's hash
from its content and the hash before it, checks every link, and checks the signature line: the
SHA-256 of every line above it, signed with Ed25519. Give the public key you noted down from EJ Desk
(--public-key); without it the key in the file is used, which proves the file is whole but not who
made it. Exit 0 when everything holds, 1 naming the first problem.
"""
import base64
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path


def field(value):
    """A field as hashed: its length in UTF-8 bytes, a colon and its text; '-' for none."""
    if value is None:
        return "-"
    return f"{len(value.encode('utf-8'))}:{value}"


def entry_hash(prev_hash, e):
    user = None if e["user_id"] is None else str(e["user_id"])
    text = prev_hash + "|" + "".join(field(v) for v in (e["at"], user, e["action"], e["entity"], e["entity_id"], e["ip"], e["detail"]))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def main(argv):
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--public-key"):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    raw = Path(argv[1]).read_bytes()
    lines = raw.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if not lines:
        print("The file is empty.", file=sys.stderr)
        return 1
    signature = json.loads(lines[-1]).get("signature")
    if not signature:
        print("The last line is not the signature: the file was cut short.", file=sys.stderr)
        return 1
    entries = [json.loads(line) for line in lines[:-1]]
    signed_bytes = b"".join(line + b"\n" for line in lines[:-1])
    digest = hashlib.sha256(signed_bytes).hexdigest()
    if digest != signature["sha256"]:
        print("The lines do not match the signed digest: a line was changed, removed or added after the export.", file=sys.stderr)
        return 1
    key = Path(argv[3]).read_text() if len(argv) == 4 else signature["public_key"]
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "key.pem").write_text(key)
        Path(folder, "digest").write_bytes(digest.encode("utf-8"))
        Path(folder, "sig").write_bytes(base64.b64decode(signature["value"]))
        checked = subprocess.run(
            ["openssl", "pkeyutl", "-verify", "-pubin", "-inkey", "key.pem", "-rawin", "-in", "digest", "-sigfile", "sig"],
            cwd=folder,
            capture_output=True,
            text=True,
        )
    if checked.returncode != 0:
        print("The signature does not verify with this public key.", file=sys.stderr)
        return 1
    prev = entries[0]["prev_hash"] if entries else None
    for e in entries:
        if e["prev_hash"] != prev:
            print(f"Entry {e['id']} does not link to the entry before it: an entry was removed or inserted there.", file=sys.stderr)
            return 1
        if entry_hash(e["prev_hash"], e) != e["hash"]:
            print(f"Entry {e['id']} was changed: its content no longer gives its hash.", file=sys.stderr)
            return 1
        prev = e["hash"]
    if prev != signature["last_hash"] or len(entries) != signature["entries"]:
        print("The chain does not end where the signature says.", file=sys.stderr)
        return 1
    print(f"The chain holds: {len(entries)} entries, signed; the last hash {prev}.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
