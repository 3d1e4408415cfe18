#!/usr/bin/env python3
"""The kernel image pvhload.elf loads (ci/bochs/pvhload/pvhload.c): a Debian vmlinuz (bzImage) or vmlinux made into
"PVHK" chunks, so that the emulated machine never runs the bzImage's XZ decompressor (~4.5e9 instructions) and the
BIOS reads only the non-zero 4 KiB pages of the kernel's PT_LOAD segments.

  mkpvhk.py [--drop=SECTION,...] VMLINUZ|VMLINUX OUT

Format (little-endian): b"PVHK", version 1, the PVH entry (XEN_ELFNOTE_PHYS32_ENTRY, CONFIG_PVH), the number of
zero ranges; then (address, size) per zero range; then (address, size, bytes) per chunk; then (0xffffffff, 0).
--drop zeroes sections first (.BTF: BPF type data the boot never reads)."""
import struct
import subprocess
import sys

PAGE = 4096
PT_LOAD, PT_NOTE, SHT_NOBITS = 1, 4, 8
XEN_ELFNOTE_PHYS32_ENTRY = 18
DECOMPRESSORS = ((b"\xfd7zXZ", ["xz", "-dc"]), (b"\x1f\x8b", ["gzip", "-dc"]), (b"\x28\xb5\x2f\xfd", ["zstd", "-dc"]))


def vmlinux_from(path):
    """The ELF kernel in a vmlinux, or in a bzImage's compressed payload (Linux boot protocol, setup header)."""
    with open(path, "rb") as f:
        image = f.read()
    if image[:4] == b"\x7fELF":
        return image
    if image[0x202:0x206] != b"HdrS":
        sys.exit(f"mkpvhk: not a vmlinux or bzImage: {path}")
    setup_sects = image[0x1F1] or 4
    payload_offset, payload_length = struct.unpack_from("<II", image, 0x248)
    payload = image[(setup_sects + 1) * 512 + payload_offset:][:payload_length]
    for magic, command in DECOMPRESSORS:
        if payload.startswith(magic):
            out = subprocess.run(command, input=payload, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
            if out[:4] != b"\x7fELF":
                sys.exit("mkpvhk: the payload did not decompress to an ELF file")
            return out
    sys.exit("mkpvhk: unknown bzImage payload compression")


def zero_sections(elf, names):
    """elf with the bytes of the named sections zeroed (so that they are not stored)."""
    elf = bytearray(elf)
    (shoff,) = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3A)

    def header(i):
        return struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize)

    strings = header(shstrndx)[4]
    for i in range(shnum):
        name, kind, _, _, offset, size = header(i)[:6]
        text = bytes(elf[strings + name:elf.index(0, strings + name)]).decode()
        if text in names and kind != SHT_NOBITS:
            elf[offset:offset + size] = bytes(size)
    return bytes(elf)


def pvh_entry_and_segments(elf):
    """The PVH entry address (from the "Xen" note) and the (physical address, file bytes, memory size) of each
    PT_LOAD segment."""
    (phoff,) = struct.unpack_from("<Q", elf, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", elf, 0x36)
    entry, segments = 0, []
    for i in range(phnum):
        kind, _, offset, _, paddr, filesz, memsz, _ = struct.unpack_from("<IIQQQQQQ", elf, phoff + i * phentsize)
        if kind == PT_NOTE:
            at = offset
            while at + 12 <= offset + filesz:
                namesz, descsz, note = struct.unpack_from("<III", elf, at)
                desc = at + 12 + ((namesz + 3) & ~3)
                if elf[at + 12:at + 12 + namesz] == b"Xen\0" and note == XEN_ELFNOTE_PHYS32_ENTRY:
                    (entry,) = struct.unpack_from("<I", elf, desc)
                at = desc + ((descsz + 3) & ~3)
        elif kind == PT_LOAD:
            segments.append((paddr, elf[offset:offset + filesz], memsz))
    if not entry:
        sys.exit("mkpvhk: no XEN_ELFNOTE_PHYS32_ENTRY note: a kernel built without CONFIG_PVH")
    return entry, segments


def chunks_and_zeros(segments):
    """Runs of non-zero pages (address, bytes) and of zero pages (address, size)."""
    chunks, zeros = [], []
    for paddr, data, memsz in segments:
        run, zero_from = None, None
        for at in range(0, memsz, PAGE):
            page = data[at:at + PAGE]  # past the file size the segment is zero
            if any(page):
                if zero_from is not None:
                    zeros.append((paddr + zero_from, at - zero_from))
                    zero_from = None
                if run is None:
                    run = [paddr + at, bytearray()]
                run[1] += page
            else:
                if run is not None:
                    chunks.append(run)
                    run = None
                if zero_from is None:
                    zero_from = at
        if run is not None:
            chunks.append(run)
        if zero_from is not None:
            zeros.append((paddr + zero_from, memsz - zero_from))
    return chunks, zeros


def main(args):
    drop = []
    while args and args[0].startswith("--drop="):
        drop += args.pop(0)[len("--drop="):].split(",")
    if len(args) != 2:
        sys.exit(__doc__)
    elf = vmlinux_from(args[0])
    if drop:
        elf = zero_sections(elf, drop)
    entry, segments = pvh_entry_and_segments(elf)
    chunks, zeros = chunks_and_zeros(segments)
    with open(args[1], "wb") as f:
        f.write(b"PVHK" + struct.pack("<III", 1, entry, len(zeros)))
        for address, size in zeros:
            f.write(struct.pack("<II", address, size))
        for address, data in chunks:
            f.write(struct.pack("<II", address, len(data)) + data)
        f.write(struct.pack("<II", 0xFFFFFFFF, 0))
    print(f"mkpvhk: {args[1]}: entry {entry:#x}, {len(chunks)} chunks, {sum(len(d) for _, d in chunks)} bytes, "
          f"{len(zeros)} zero ranges")


if __name__ == "__main__":
    main(sys.argv[1:])
