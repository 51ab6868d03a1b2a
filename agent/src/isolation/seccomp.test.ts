import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findExecutable, probeBwrap } from './bwrap.js';
import {
  AUDIT_ARCH, BPF, CLONE_NEW_NAMESPACES, encodeProgram, hostSeccompArch, hostSeccompFilter, REFUSED_SYSCALLS, runProgram,
  SECCOMP_RET, seccompProgram, syscallNumbers, X32_SYSCALL_BIT, type SeccompArch,
} from './seccomp.js';
import { requireTool } from '../test-support/system.js';

const ARCHES: SeccompArch[] = ['x86_64', 'aarch64'];
const EPERM = (SECCOMP_RET.ERRNO | 1) >>> 0;
const ENOSYS = (SECCOMP_RET.ERRNO | 38) >>> 0;
const CLONE_NEWUSER = 0x10000000;
const CLONE_NEWNS = 0x00020000;
const SIGCHLD = 17;
const CLONE_THREAD_FLAGS = 0x003d0f00; // what glibc's pthread_create passes

for (const arch of ARCHES) {
  const prog = seccompProgram(arch);
  const table = syscallNumbers(arch);
  const run = (name: string, args: number[] = []) => runProgram(prog, { arch: AUDIT_ARCH[arch], nr: table[name]!, args });

  test(`seccomp (${arch}): every refused call answers EPERM; ordinary calls are allowed`, (t) => {
    for (const name of REFUSED_SYSCALLS) {
      if (table[name] === undefined) continue; // x86-only calls on aarch64
      t.is(run(name), EPERM, name);
    }
    // read, write, openat, execve, exit_group, socket, bind... are allowed.
    const allowed: Record<SeccompArch, number[]> = { x86_64: [0, 1, 257, 59, 231, 41, 49, 2, 39], aarch64: [63, 64, 56, 221, 94, 198, 200, 172] };
    for (const nr of allowed[arch]) t.is(runProgram(prog, { arch: AUDIT_ARCH[arch], nr }), SECCOMP_RET.ALLOW, `nr ${nr}`);
  });

  test(`seccomp (${arch}): namespaces cannot be created; fork and threads can`, (t) => {
    t.is(run('unshare', [CLONE_NEWUSER]), EPERM);
    t.is(run('unshare', [CLONE_NEWNS]), EPERM);
    t.is(run('unshare', [0x00000400]), SECCOMP_RET.ALLOW, 'unshare(CLONE_FILES) creates no namespace');
    for (const bit of [0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000, 0x40000000, 0x80]) {
      t.is(run('clone', [bit | SIGCHLD]), EPERM, `clone flag ${bit.toString(16)}`);
    }
    t.is(run('clone', [SIGCHLD]), SECCOMP_RET.ALLOW, 'fork');
    t.is(run('clone', [CLONE_THREAD_FLAGS]), SECCOMP_RET.ALLOW, 'pthread_create');
    t.is(CLONE_THREAD_FLAGS & CLONE_NEW_NAMESPACES, 0);
    t.is(run('clone3'), ENOSYS, 'clone3 falls back to clone in the C library');
    t.is(run('setns'), EPERM);
  });

  test(`seccomp (${arch}): TIOCSTI and TIOCLINUX are refused, other ioctls allowed`, (t) => {
    t.is(run('ioctl', [1, 0x5412]), EPERM);
    t.is(run('ioctl', [1, 0x541c]), EPERM);
    t.is(run('ioctl', [1, 0x5401]), SECCOMP_RET.ALLOW, 'TCGETS');
    t.is(run('ioctl', [1, 0x541b]), SECCOMP_RET.ALLOW, 'FIONREAD');
  });

  test(`seccomp (${arch}): another ABI is killed (no way around the table)`, (t) => {
    const other = arch === 'x86_64' ? 0x40000003 /* AUDIT_ARCH_I386 */ : 0x40000028; /* AUDIT_ARCH_ARM */
    t.is(runProgram(prog, { arch: other, nr: 1 }), SECCOMP_RET.KILL_PROCESS);
    t.is(runProgram(prog, { arch: other, nr: table['mount']! }), SECCOMP_RET.KILL_PROCESS);
    if (arch === 'x86_64') {
      // x32 shares AUDIT_ARCH_X86_64 and sets bit 30 of the number.
      t.is(runProgram(prog, { arch: AUDIT_ARCH.x86_64, nr: X32_SYSCALL_BIT | 165 }), ENOSYS);
      t.is(runProgram(prog, { arch: AUDIT_ARCH.x86_64, nr: X32_SYSCALL_BIT | 0 }), ENOSYS);
    }
  });

  test(`seccomp (${arch}): the program is well formed (jumps land inside, ends in returns)`, (t) => {
    t.true(prog.length < 4096);
    prog.forEach((p, i) => {
      if (p.code === BPF.JEQ_K || p.code === BPF.JGE_K || p.code === BPF.JSET_K) {
        t.true(i + 1 + p.jt < prog.length && i + 1 + p.jf < prog.length, `jump at ${i}`);
      }
    });
    t.is(prog.at(-1)!.code, BPF.RET_K);
    t.deepEqual(prog.at(-1)!.k, SECCOMP_RET.ALLOW);
    const bytes = encodeProgram(prog);
    t.is(bytes.length, prog.length * 8);
    t.is(bytes.readUInt16LE(0), BPF.LD_W_ABS);
    t.is(bytes.readUInt32LE(4), 4, 'the first instruction loads seccomp_data.arch');
    t.is(bytes.readUInt32LE(12), AUDIT_ARCH[arch]);
  });

  test(`seccomp (${arch}): the numbers are libseccomp's`, (t) => {
    const resolver = findExecutable('scmp_sys_resolver');
    if (!requireTool(t, resolver !== undefined, 'scmp_sys_resolver (Debian package seccomp)', false)) return;
    for (const [name, nr] of Object.entries(table)) {
      const r = spawnSync(resolver!, ['-a', arch, name], { encoding: 'utf8' });
      t.is(Number(r.stdout.trim()), nr, `${arch} ${name}`);
    }
  });
}

test('seccomp: the host has a filter on x64 and arm64, none elsewhere', (t) => {
  t.is(hostSeccompArch('x64'), 'x86_64');
  t.is(hostSeccompArch('arm64'), 'aarch64');
  t.is(hostSeccompArch('riscv64'), undefined);
  t.is(hostSeccompFilter('riscv64'), undefined);
  t.truthy(hostSeccompFilter('x64'));
});

test('seccomp: loaded by bwrap, the kernel refuses what the filter says and runs the rest', (t) => {
  const probe = probeBwrap();
  if (!requireTool(t, probe.ok && hostSeccompFilter() !== undefined, 'bubblewrap')) return;
  const dir = mkdtempSync(join(tmpdir(), 'seccomp-test-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'filter.bpf');
  writeFileSync(file, hostSeccompFilter()!);
  const script = [
    'import ctypes, os, errno',
    'libc = ctypes.CDLL(None, use_errno=True)',
    'def tryit(name, *args):',
    '    r = getattr(libc, name)(*args)',
    '    print(name, r, errno.errorcode.get(ctypes.get_errno(), 0) if r < 0 else "ok")',
    'tryit("unshare", 0x10000000)',
    'tryit("mount", b"none", b"/tmp", b"tmpfs", 0, None)',
    'x86 = os.uname().machine == "x86_64"',
    'tryit("syscall", 304 if x86 else 265, -100, None, 0)', // open_by_handle_at
    'tryit("syscall", 250 if x86 else 219, 0, 0)', // keyctl
    'tryit("getpid")',
    'print("fork", "ok" if os.fork() or os._exit(0) else "")',
  ].join('\n');
  // bwrap reads the filter from fd 3, opened by a shell as the agent's launch wrapper does.
  const withFd = spawnSync('/bin/sh', ['-c', `exec "$@" 3<"${file}"`, 'sh', probe.ok ? probe.path : 'bwrap',
    '--unshare-user', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--unshare-pid', '--cap-drop', 'ALL',
    '--seccomp', '3', '--', '/usr/bin/python3', '-c', script], { encoding: 'utf8', timeout: 30_000 });
  t.is(withFd.status, 0, withFd.stderr);
  const out = withFd.stdout;
  t.log(out.trim().split('\n').join(' | '));
  t.regex(out, /^unshare -1 EPERM$/m);
  t.regex(out, /^mount -1 EPERM$/m);
  t.is(out.match(/^syscall -1 EPERM$/gm)?.length, 2, 'open_by_handle_at and keyctl');
  t.regex(out, /^getpid \d+ ok$/m);
  t.regex(out, /^fork ok$/m);
});
