/* pvhload: a Multiboot (v1) kernel that boots an x86-64 Linux vmlinux through its PVH entry point, so the
 * emulator never runs the bzImage decompressor (Debian's kernels are XZ: ~4.5e9 emulated instructions).
 *
 * Loaded by SYSLINUX's mboot.c32:  mboot.c32 /pvhload.elf KERNEL-CMDLINE --- /vmlinux.pvh --- /initrd
 *   module 0: the kernel, either a plain ELF64 vmlinux or the "PVHK" chunk format made by mkpvhk.py
 *             (only non-zero 4 KiB pages of the PT_LOAD segments, so less to read through the BIOS);
 *   module 1 (optional): the initramfs.
 * The loader moves the modules to the top of RAM, copies the kernel to its physical addresses, builds an
 * hvm_start_info (with the BIOS E820 map from Multiboot, the ACPI RSDP and the initrd), and jumps to the
 * XEN_ELFNOTE_PHYS32_ENTRY address in 32-bit flat protected mode with EBX = &start_info (the PVH ABI).
 * Build: gcc -m32 -ffreestanding -fno-pic -fno-stack-protector -nostdlib -O2 -c pvhload.c; see build.sh. */
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;

#define MB_MAGIC 0x1BADB002u
#define MB_FLAGS 0x00000003u /* page-align modules, want memory info */
__attribute__((section(".multiboot"), used, aligned(4))) static const u32 mb_header[3] = {
    MB_MAGIC, MB_FLAGS, (u32)(-(MB_MAGIC + MB_FLAGS))};

struct mb_info {
  u32 flags, mem_lower, mem_upper, boot_device, cmdline, mods_count, mods_addr;
  u32 syms[4];
  u32 mmap_length, mmap_addr;
};
struct mb_mod {
  u32 start, end, string, reserved;
};
struct mb_mmap {
  u32 size;
  u64 addr, len;
  u32 type;
} __attribute__((packed));

struct hvm_start_info {
  u32 magic, version, flags, nr_modules;
  u64 modlist_paddr, cmdline_paddr, rsdp_paddr, memmap_paddr;
  u32 memmap_entries, reserved;
};
struct hvm_modlist_entry {
  u64 paddr, size, cmdline_paddr, reserved;
};
struct hvm_memmap_entry {
  u64 addr, size;
  u32 type, reserved;
};

static struct hvm_start_info start_info __attribute__((aligned(16)));
static struct hvm_modlist_entry modlist[1] __attribute__((aligned(16)));
static struct hvm_memmap_entry memmap[128] __attribute__((aligned(16)));
static char cmdline[4096];

/* --- serial output on COM1 (for errors / progress), polled --- */
static inline void outb(u16 port, u8 v) { __asm__ volatile("outb %0, %1" ::"a"(v), "Nd"(port)); }
static inline u8 inb(u16 port) {
  u8 v;
  __asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
  return v;
}
static void putc_(char c) {
  if (c == '\n') putc_('\r');
  for (int i = 0; i < 100000 && !(inb(0x3f8 + 5) & 0x20); i++) {
  }
  outb(0x3f8, (u8)c);
}
static void puts_(const char* s) {
  while (*s) putc_(*s++);
}
static void puthex(u64 v) {
  puts_("0x");
  for (int i = 60; i >= 0; i -= 4) putc_("0123456789abcdef"[(v >> i) & 15]);
}
static void die(const char* msg) {
  puts_("pvhload: error: ");
  puts_(msg);
  puts_("\n");
  /* Bochs shutdown port, then halt. */
  for (const char* s = "Shutdown"; *s; s++) outb(0x8900, (u8)*s);
  for (;;) __asm__ volatile("cli; hlt");
}

static void* memmove_(void* d, const void* s, u32 n) {
  u8* dp = d;
  const u8* sp = s;
  if (dp == sp || n == 0) return d;
  if (dp < sp) {
    __asm__ volatile("cld; rep movsb" : "+D"(dp), "+S"(sp), "+c"(n)::"memory");
  } else {
    dp += n - 1;
    sp += n - 1;
    __asm__ volatile("std; rep movsb; cld" : "+D"(dp), "+S"(sp), "+c"(n)::"memory");
  }
  return d;
}
static void memset0(void* d, u32 n) { __asm__ volatile("cld; rep stosb" : "+D"(d), "+c"(n) : "a"(0) : "memory"); }
static int memeq(const void* a, const void* b, u32 n) {
  const u8 *x = a, *y = b;
  while (n--)
    if (*x++ != *y++) return 0;
  return 1;
}

static u64 find_rsdp(void) {
  u32 ebda = (u32)(*(volatile u16*)(u32)0x40e) << 4;
  if (ebda >= 0x80000 && ebda < 0xa0000)
    for (u32 p = ebda; p < ebda + 1024; p += 16)
      if (memeq((void*)p, "RSD PTR ", 8)) return p;
  for (u32 p = 0xe0000; p < 0x100000; p += 16)
    if (memeq((void*)p, "RSD PTR ", 8)) return p;
  return 0;
}

/* ELF64 structures (only what is needed). */
struct elf64_ehdr {
  u8 ident[16];
  u16 type, machine;
  u32 version;
  u64 entry, phoff, shoff;
  u32 flags;
  u16 ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};
struct elf64_phdr {
  u32 type, flags;
  u64 offset, vaddr, paddr, filesz, memsz, align;
};

static u32 pvh_entry;

static void note_scan(const u8* p, u32 len) {
  u32 off = 0;
  while (off + 12 <= len) {
    u32 namesz = *(u32*)(p + off), descsz = *(u32*)(p + off + 4), type = *(u32*)(p + off + 8);
    const u8 *name = p + off + 12, *desc = name + ((namesz + 3) & ~3u);
    if (namesz == 4 && memeq(name, "Xen", 4) && type == 18 /* XEN_ELFNOTE_PHYS32_ENTRY */) pvh_entry = *(u32*)desc;
    off += 12 + ((namesz + 3) & ~3u) + ((descsz + 3) & ~3u);
  }
}

static void load_elf(const u8* img) {
  const struct elf64_ehdr* eh = (const void*)img;
  if (!memeq(eh->ident, "\177ELF\2", 5)) die("module 0 is not an ELF64 file");
  for (u32 i = 0; i < eh->phnum; i++) {
    const struct elf64_phdr* ph = (const void*)(img + eh->phoff + i * eh->phentsize);
    if (ph->type == 4) note_scan(img + ph->offset, (u32)ph->filesz);
  }
  for (u32 i = 0; i < eh->phnum; i++) {
    const struct elf64_phdr* ph = (const void*)(img + eh->phoff + i * eh->phentsize);
    if (ph->type != 1) continue;
    memmove_((void*)(u32)ph->paddr, img + ph->offset, (u32)ph->filesz);
    if (ph->memsz > ph->filesz) memset0((void*)(u32)(ph->paddr + ph->filesz), (u32)(ph->memsz - ph->filesz));
  }
}

/* PVHK format (little endian): "PVHK" u32 version(1) u32 entry u32 nranges, then nranges x {u32 paddr, u32 size}
 * to zero, then chunks {u32 paddr, u32 size, data[size]} until paddr == 0xffffffff. */
static void load_pvhk(const u8* img) {
  const u32* h = (const u32*)img;
  pvh_entry = h[2];
  u32 nr = h[3];
  const u32* r = h + 4;
  for (u32 i = 0; i < nr; i++) memset0((void*)r[2 * i], r[2 * i + 1]);
  const u8* p = (const u8*)(r + 2 * nr);
  for (;;) {
    u32 pa = ((const u32*)p)[0], sz = ((const u32*)p)[1];
    if (pa == 0xffffffffu) break;
    memmove_((void*)pa, p + 8, sz);
    p += 8 + sz;
  }
}

void pvhload_main(u32 magic, struct mb_info* mbi) {
  /* COM1: 115200 8N1 so that error messages are readable even before the kernel programs it. */
  outb(0x3f8 + 1, 0);
  outb(0x3f8 + 3, 0x80);
  outb(0x3f8, 1);
  outb(0x3f8 + 1, 0);
  outb(0x3f8 + 3, 3);
  if (magic != 0x2BADB002u) die("not started by a Multiboot loader");
  if (!(mbi->flags & (1u << 3)) || mbi->mods_count < 1) die("no modules (need vmlinux[, initrd])");
  if (!(mbi->flags & (1u << 6))) die("no memory map from the loader");

  /* Kernel command line: the Multiboot command line minus its first word (our own file name). */
  const char* cl = (mbi->flags & (1u << 2)) ? (const char*)mbi->cmdline : "";
  while (*cl && *cl != ' ') cl++;
  while (*cl == ' ') cl++;
  u32 n = 0;
  while (cl[n] && n < sizeof cmdline - 1) {
    cmdline[n] = cl[n];
    n++;
  }
  cmdline[n] = 0;

  /* E820 map from Multiboot; find the highest usable RAM end below 4 GiB. */
  u32 nmm = 0;
  u64 top = 0;
  for (u32 p = mbi->mmap_addr; p < mbi->mmap_addr + mbi->mmap_length && nmm < 128;) {
    const struct mb_mmap* m = (const void*)p;
    memmap[nmm].addr = m->addr;
    memmap[nmm].size = m->len;
    memmap[nmm].type = m->type;
    memmap[nmm].reserved = 0;
    if (m->type == 1 && m->addr + m->len <= 0x100000000ull && m->addr + m->len > top) top = m->addr + m->len;
    nmm++;
    p += m->size + 4;
  }

  /* Move the modules to the top of RAM (highest first, so nothing is overwritten before it moves). */
  struct mb_mod* mods = (struct mb_mod*)mbi->mods_addr;
  u32 nmods = mbi->mods_count > 2 ? 2 : mbi->mods_count;
  u32 start[2], size[2], order[2] = {0, 1};
  for (u32 i = 0; i < nmods; i++) {
    start[i] = mods[i].start;
    size[i] = mods[i].end - mods[i].start;
  }
  if (nmods == 2 && start[0] > start[1]) {
    order[0] = 0;
    order[1] = 1;
  } else if (nmods == 2) {
    order[0] = 1;
    order[1] = 0;
  }
  u32 dst_top = (u32)(top & ~0xfffull);
  u32 newstart[2];
  for (u32 k = 0; k < nmods; k++) {
    u32 i = order[k];
    u32 dst = (dst_top - size[i]) & ~0xfffu;
    if (dst < start[i]) dst = start[i]; /* already high enough: leave it */
    memmove_((void*)dst, (void*)start[i], size[i]);
    newstart[i] = dst;
    dst_top = dst;
  }

  const u8* kimg = (const u8*)newstart[0];
  if (memeq(kimg, "PVHK", 4))
    load_pvhk(kimg);
  else
    load_elf(kimg);
  if (!pvh_entry) die("kernel has no XEN_ELFNOTE_PHYS32_ENTRY (CONFIG_PVH)");

  u32 nm = 0;
  if (nmods >= 2) {
    modlist[0].paddr = newstart[1];
    modlist[0].size = size[1];
    modlist[0].cmdline_paddr = 0;
    modlist[0].reserved = 0;
    nm = 1;
  }
  start_info.magic = 0x336ec578u;
  start_info.version = 1;
  start_info.flags = 0;
  start_info.nr_modules = nm;
  start_info.modlist_paddr = nm ? (u32)modlist : 0;
  start_info.cmdline_paddr = (u32)cmdline;
  start_info.rsdp_paddr = find_rsdp();
  start_info.memmap_paddr = (u32)memmap;
  start_info.memmap_entries = nmm;
  start_info.reserved = 0;
  { /* marker: loading done, entering the kernel; TSC = Bochs ticks (emulated instructions + idle skips) */
    u32 lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    puts_("@@PVHLOAD tsc=");
    puthex(((u64)hi << 32) | lo);
    puts_("\n");
  }
  if (cmdline[0] == '!') { /* "!..." on the command line: print what we do (debug) */
    puts_("pvhload: entry=");
    puthex(pvh_entry);
    puts_(" initrd=");
    puthex(nm ? newstart[1] : 0);
    puts_(" size=");
    puthex(nm ? size[1] : 0);
    puts_(" rsdp=");
    puthex(start_info.rsdp_paddr);
    puts_("\n");
    cmdline[0] = ' ';
  }
  __asm__ volatile("cli; cld; jmp *%0" ::"r"(pvh_entry), "b"(&start_info) : "memory");
  for (;;) {
  }
}
