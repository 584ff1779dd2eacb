/**
 * Which process holds a POSIX (fcntl) lock on a file, as the kernel tells it (fcntl F_GETLK). SQLite
 * locks the database files it has open this way, and sqld keeps a shared lock on its database and on
 * its metastore for as long as it runs; the kernel answers for every process, whatever user it runs
 * as. Linux on x86-64 only, like the sqld binary the project runs.
 */

/** Where Debian and Red Hat keep the C library. */
const LIBC_PATHS = ["/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib64/libc.so.6"];
const O_RDONLY_CLOEXEC = 0o2000000;
const F_GETLK = 5;
const F_WRLCK = 1;
const F_UNLCK = 2;
/** struct flock on x86-64 Linux: l_type i16 at 0, l_whence i16 at 2, l_start i64 at 8, l_len i64 at 16, l_pid i32 at 24. */
const FLOCK_BYTES = 32;
const FLOCK_PID_OFFSET = 24;

async function openLibc() {
  for (const path of LIBC_PATHS) {
    if (await Deno.stat(path).then(() => true, () => false)) {
      return Deno.dlopen(path, {
        open: { parameters: ["buffer", "i32"], result: "i32" },
        fcntl: { parameters: ["i32", "i32", "buffer"], result: "i32" },
        close: { parameters: ["i32"], result: "i32" },
      });
    }
  }
  throw new Error(
    `no C library at ${LIBC_PATHS.join(" or ")}: cannot ask the kernel who holds a file's locks`,
  );
}

/**
 * The pid of a process holding any lock on `path`, or null when none does or the file does not exist.
 * Asks whether the whole file could be write-locked, which any other process's lock prevents.
 */
export async function lockHolder(path: string): Promise<number | null> {
  if (!await Deno.stat(path).then(() => true, () => false)) return null;
  const libc = await openLibc();
  try {
    const fd = libc.symbols.open(new TextEncoder().encode(`${path}\0`), O_RDONLY_CLOEXEC);
    if (fd < 0) {
      throw new Error(`cannot open ${path} to ask for its locks: run as root or as the user sqld runs as`);
    }
    try {
      const flock = new Uint8Array(FLOCK_BYTES);
      const view = new DataView(flock.buffer);
      // l_whence, l_start and l_len stay 0: from the start to the end of the file.
      view.setInt16(0, F_WRLCK, true);
      if (libc.symbols.fcntl(fd, F_GETLK, flock) !== 0) {
        throw new Error(`cannot ask for the locks of ${path}`);
      }
      return view.getInt16(0, true) === F_UNLCK ? null : view.getInt32(FLOCK_PID_OFFSET, true);
    } finally {
      // This process holds no lock on the file, so closing it releases none.
      libc.symbols.close(fd);
    }
  } finally {
    libc.close();
  }
}
