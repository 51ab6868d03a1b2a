/**
 * The seccomp filter of bwrap instances: a classic BPF program (what `bwrap --seccomp FD`
 * loads), generated here so that the agent needs no compiler or library at run time.
 *
 * The filter refuses the system calls that container runtimes refuse by default (Docker's and
 * Podman's profiles, Flatpak's): those that reach the host through file handles, mounts, other
 * processes' memory, kernel modules, the kernel keyring, BPF, performance counters, swap,
 * reboot, accounting, new namespaces, the clock... Each answers EPERM (ENOSYS for clone3, whose
 * flags a filter cannot read, so that the C library falls back to clone, whose flags it can).
 * Everything else is allowed: the point is to take away the kernel's rarely needed and most
 * attacked surface, not to confine a program to a list it must declare.
 *
 * Program layout (one arch; the host's):
 *
 *   ld  arch            ; seccomp_data.arch
 *   jeq AUDIT_ARCH, +1  ; another ABI (i386, x32 via the bit below, arm32) would number calls
 *   ret KILL_PROCESS    ;   differently and slip past the table: kill
 *   ld  nr
 *   [x86_64] jge 0x40000000 -> ret ERRNO   ; the x32 ABI shares the arch value
 *   for each refused call:        jeq nr, 0, +1 ; ret ERRNO
 *   for each call checked by arg: jeq nr, 0, +4 ; ld args[i] ; jset MASK (or jeq VALUE), 0, +1 ;
 *                                 ret ERRNO ; ld nr
 *   ret ALLOW
 *
 * Only the low 32 bits of an argument are read (offset 16 + 8i on these little-endian arches):
 * every flag tested lives there.
 */

export type SeccompArch = 'x86_64' | 'aarch64';

/** A rule refusing a system call, always or when an argument has any bit of `mask` set. */
interface Rule {
  name: string;
  errno: number;
  arg?: { index: number; mask: number };
  /** `equals` instead of `mask`: refused when the argument's low 32 bits equal it. */
  equals?: { index: number; value: number };
}

const EPERM = 1;
const ENOSYS = 38;

/** Namespace flags of clone/unshare (sched.h): none may be created inside an instance. */
export const CLONE_NEW_NAMESPACES =
  0x00020000 | // CLONE_NEWNS
  0x02000000 | // CLONE_NEWCGROUP
  0x04000000 | // CLONE_NEWUTS
  0x08000000 | // CLONE_NEWIPC
  0x10000000 | // CLONE_NEWUSER
  0x20000000 | // CLONE_NEWPID
  0x40000000 | // CLONE_NEWNET
  0x00000080; // CLONE_NEWTIME

const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;

/** Calls refused outright, in the order of the program. */
export const REFUSED_SYSCALLS = [
  // File handles: open_by_handle_at is the "shocker" escape (it needs only an inode number).
  'open_by_handle_at', 'name_to_handle_at',
  // Mounts, old and new API.
  'mount', 'umount2', 'pivot_root', 'fsopen', 'fsconfig', 'fsmount', 'fspick', 'move_mount', 'open_tree', 'mount_setattr',
  // Other processes: tracing, their memory, their file descriptors, comparing their kernel objects.
  'ptrace', 'process_vm_readv', 'process_vm_writev', 'pidfd_getfd', 'kcmp',
  // The kernel itself.
  'init_module', 'finit_module', 'delete_module', 'kexec_load', 'kexec_file_load',
  'bpf', 'perf_event_open', 'userfaultfd', 'lookup_dcookie', 'syslog',
  'io_uring_setup', 'io_uring_enter', 'io_uring_register',
  // The kernel keyring (not namespaced).
  'keyctl', 'add_key', 'request_key',
  // Namespaces: joining one.
  'setns',
  // Host-wide state.
  'swapon', 'swapoff', 'reboot', 'acct', 'quotactl', 'quotactl_fd', 'nfsservctl',
  'settimeofday', 'clock_settime', 'clock_adjtime', 'adjtimex',
  // x86 only: port I/O and long-gone module calls (absent from the aarch64 table, skipped there).
  'iopl', 'ioperm', 'create_module', 'get_kernel_syms', 'query_module', 'uselib',
] as const;

const RULES: readonly Rule[] = [
  ...REFUSED_SYSCALLS.map((name) => ({ name, errno: EPERM })),
  // Creating namespaces: unshare(flags) and clone(flags, ...) with any CLONE_NEW* flag.
  { name: 'unshare', errno: EPERM, arg: { index: 0, mask: CLONE_NEW_NAMESPACES } },
  { name: 'clone', errno: EPERM, arg: { index: 0, mask: CLONE_NEW_NAMESPACES } },
  // clone3 passes its flags in a struct the filter cannot read: ENOSYS makes libc use clone.
  { name: 'clone3', errno: ENOSYS },
  // Typing into the controlling terminal of another process.
  { name: 'ioctl', errno: EPERM, equals: { index: 1, value: TIOCSTI } },
  { name: 'ioctl', errno: EPERM, equals: { index: 1, value: TIOCLINUX } },
];

/** System call numbers (checked against libseccomp's tables by the tests). */
const SYSCALLS: Record<SeccompArch, Record<string, number>> = {
  x86_64: {
    open_by_handle_at: 304, name_to_handle_at: 303, mount: 165, umount2: 166, pivot_root: 155,
    fsopen: 430, fsconfig: 431, fsmount: 432, fspick: 433, move_mount: 429, open_tree: 428, mount_setattr: 442,
    ptrace: 101, process_vm_readv: 310, process_vm_writev: 311, pidfd_getfd: 438, kcmp: 312,
    init_module: 175, finit_module: 313, delete_module: 176, kexec_load: 246, kexec_file_load: 320,
    bpf: 321, perf_event_open: 298, userfaultfd: 323, lookup_dcookie: 212, syslog: 103,
    io_uring_setup: 425, io_uring_enter: 426, io_uring_register: 427,
    keyctl: 250, add_key: 248, request_key: 249, setns: 308,
    swapon: 167, swapoff: 168, reboot: 169, acct: 163, quotactl: 179, quotactl_fd: 443, nfsservctl: 180,
    settimeofday: 164, clock_settime: 227, clock_adjtime: 305, adjtimex: 159,
    iopl: 172, ioperm: 173, create_module: 174, get_kernel_syms: 177, query_module: 178, uselib: 134,
    unshare: 272, clone: 56, clone3: 435, ioctl: 16,
  },
  aarch64: {
    open_by_handle_at: 265, name_to_handle_at: 264, mount: 40, umount2: 39, pivot_root: 41,
    fsopen: 430, fsconfig: 431, fsmount: 432, fspick: 433, move_mount: 429, open_tree: 428, mount_setattr: 442,
    ptrace: 117, process_vm_readv: 270, process_vm_writev: 271, pidfd_getfd: 438, kcmp: 272,
    init_module: 105, finit_module: 273, delete_module: 106, kexec_load: 104, kexec_file_load: 294,
    bpf: 280, perf_event_open: 241, userfaultfd: 282, lookup_dcookie: 18, syslog: 116,
    io_uring_setup: 425, io_uring_enter: 426, io_uring_register: 427,
    keyctl: 219, add_key: 217, request_key: 218, setns: 268,
    swapon: 224, swapoff: 225, reboot: 142, acct: 89, quotactl: 60, quotactl_fd: 443, nfsservctl: 42,
    settimeofday: 170, clock_settime: 112, clock_adjtime: 266, adjtimex: 171,
    unshare: 97, clone: 220, clone3: 435, ioctl: 29,
  },
};

/** The syscall table of `arch` (for tests and docs). */
export function syscallNumbers(arch: SeccompArch): Readonly<Record<string, number>> {
  return SYSCALLS[arch];
}

export const AUDIT_ARCH: Record<SeccompArch, number> = { x86_64: 0xc000003e, aarch64: 0xc00000b7 };
export const X32_SYSCALL_BIT = 0x40000000;

// Classic BPF (linux/filter.h, linux/seccomp.h).
export const BPF = {
  LD_W_ABS: 0x20,
  JEQ_K: 0x15,
  JGE_K: 0x35,
  JSET_K: 0x45,
  RET_K: 0x06,
} as const;
export const SECCOMP_RET = { KILL_PROCESS: 0x80000000, ERRNO: 0x00050000, ALLOW: 0x7fff0000 } as const;
/** Offsets in struct seccomp_data. */
export const SECCOMP_DATA = { nr: 0, arch: 4, args: 16 } as const;

export interface BpfInstruction {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

const ins = (code: number, k: number, jt = 0, jf = 0): BpfInstruction => ({ code, jt, jf, k });

/** The node.js arch name of the host, as a seccomp arch; undefined where we have no table. */
export function hostSeccompArch(arch: string = process.arch): SeccompArch | undefined {
  if (arch === 'x64') return 'x86_64';
  if (arch === 'arm64') return 'aarch64';
  return undefined;
}

/** The filter's instructions for `arch`. */
export function seccompProgram(arch: SeccompArch): BpfInstruction[] {
  const table = SYSCALLS[arch];
  const errno = (e: number) => ins(BPF.RET_K, (SECCOMP_RET.ERRNO | e) >>> 0);
  const allow = ins(BPF.RET_K, SECCOMP_RET.ALLOW);
  const prog: BpfInstruction[] = [
    ins(BPF.LD_W_ABS, SECCOMP_DATA.arch),
    ins(BPF.JEQ_K, AUDIT_ARCH[arch], 1, 0),
    ins(BPF.RET_K, SECCOMP_RET.KILL_PROCESS),
    ins(BPF.LD_W_ABS, SECCOMP_DATA.nr),
  ];
  if (arch === 'x86_64') prog.push(ins(BPF.JGE_K, X32_SYSCALL_BIT, 0, 1), errno(ENOSYS));
  for (const rule of RULES) {
    const nr = table[rule.name];
    if (nr === undefined) continue; // not on this arch
    const check = rule.arg ?? rule.equals;
    if (!check) {
      prog.push(ins(BPF.JEQ_K, nr, 0, 1), errno(rule.errno));
      continue;
    }
    const test = rule.arg ? ins(BPF.JSET_K, rule.arg.mask >>> 0, 0, 1) : ins(BPF.JEQ_K, (rule.equals as { value: number }).value >>> 0, 0, 1);
    // Not this call: skip the 4 instructions below (nr stays in the accumulator). This call: load
    // the argument, refuse when it matches, else reload nr and go on (another rule may refuse the
    // same call for another argument value: ioctl twice).
    prog.push(
      ins(BPF.JEQ_K, nr, 0, 4),
      ins(BPF.LD_W_ABS, SECCOMP_DATA.args + 8 * check.index),
      test,
      errno(rule.errno),
      ins(BPF.LD_W_ABS, SECCOMP_DATA.nr),
    );
  }
  prog.push(allow);
  return prog;
}

/** The program as `struct sock_filter[]` bytes (little-endian), the form bwrap --seccomp reads. */
export function encodeProgram(prog: readonly BpfInstruction[]): Buffer {
  if (prog.length > 4096) throw new Error(`seccomp program too long (${prog.length} instructions)`);
  const buf = Buffer.alloc(prog.length * 8);
  prog.forEach((p, i) => {
    buf.writeUInt16LE(p.code, i * 8);
    buf.writeUInt8(p.jt, i * 8 + 2);
    buf.writeUInt8(p.jf, i * 8 + 3);
    buf.writeUInt32LE(p.k >>> 0, i * 8 + 4);
  });
  return buf;
}

/** The encoded filter for this host; undefined on an arch without a table (the caller refuses or warns). */
export function hostSeccompFilter(arch: string = process.arch): Buffer | undefined {
  const a = hostSeccompArch(arch);
  return a ? encodeProgram(seccompProgram(a)) : undefined;
}

/**
 * Runs `prog` on a seccomp_data, as the kernel would (the subset of classic BPF used above).
 * For tests, and for the agent's own check of the program it is about to hand to bwrap.
 */
export function runProgram(prog: readonly BpfInstruction[], data: { arch: number; nr: number; args?: readonly number[] }): number {
  let acc = 0;
  const load = (off: number): number => {
    if (off === SECCOMP_DATA.nr) return data.nr >>> 0;
    if (off === SECCOMP_DATA.arch) return data.arch >>> 0;
    if (off >= SECCOMP_DATA.args && off < SECCOMP_DATA.args + 48 && (off - SECCOMP_DATA.args) % 8 === 0) {
      return (data.args?.[(off - SECCOMP_DATA.args) / 8] ?? 0) >>> 0;
    }
    throw new Error(`load at unsupported offset ${off}`);
  };
  for (let pc = 0; pc < prog.length; ) {
    const p = prog[pc] as BpfInstruction;
    switch (p.code) {
      case BPF.LD_W_ABS:
        acc = load(p.k);
        pc++;
        break;
      case BPF.JEQ_K:
        pc += 1 + (acc === p.k >>> 0 ? p.jt : p.jf);
        break;
      case BPF.JGE_K:
        pc += 1 + (acc >= p.k >>> 0 ? p.jt : p.jf);
        break;
      case BPF.JSET_K:
        pc += 1 + ((acc & p.k) !== 0 ? p.jt : p.jf);
        break;
      case BPF.RET_K:
        return p.k >>> 0;
      default:
        throw new Error(`unsupported BPF instruction ${p.code}`);
    }
  }
  throw new Error('the program fell off its end');
}
