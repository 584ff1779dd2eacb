/**
 * A TCP relay on loopback that delays each direction by `oneWayDelayMs`, standing in for a WAN link
 * between a regional node and headquarters. Only 127.0.0.1 is ever dialled or listened on.
 */
function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // Already closed.
  }
}

export class DelayRelay {
  readonly #listener: Deno.TcpListener;
  readonly #connections = new Set<Deno.Conn>();
  targetPort: number;
  oneWayDelayMs: number;
  /** While false the relay refuses new connections and cuts the open ones: the link is down. */
  #up = true;
  /** While paused, bytes are held (a black-holed link), then delivered on resume: towards the target, and back. */
  #gates = { request: Promise.resolve(), reply: Promise.resolve() };
  #resume: (() => void) | null = null;

  constructor(targetPort: number, oneWayDelayMs: number) {
    this.#listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    this.targetPort = targetPort;
    this.oneWayDelayMs = oneWayDelayMs;
    void this.#accept();
  }

  get port(): number {
    return (this.#listener.addr as Deno.NetAddr).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Cuts every open connection (the link fails); new ones pass again unless `down()`. */
  cut(): void {
    for (const conn of this.#connections) closeQuietly(conn);
    this.#connections.clear();
  }

  down(): void {
    this.#up = false;
    this.cut();
  }

  up(): void {
    this.#up = true;
  }

  /** Holds every byte from now on, connections staying open: the other side hears nothing. */
  pause(): void {
    this.#hold(["request", "reply"]);
  }

  /** Holds only what the target sends back: requests arrive and run, their answers do not return. */
  pauseReplies(): void {
    this.#hold(["reply"]);
  }

  #hold(directions: ("request" | "reply")[]): void {
    if (this.#resume !== null) return;
    const gate = new Promise<void>((resolve) => (this.#resume = resolve));
    for (const direction of directions) this.#gates[direction] = gate;
  }

  /** Delivers what was held, in order, and lets traffic through again. */
  resume(): void {
    this.#resume?.();
    this.#resume = null;
    this.#gates = { request: Promise.resolve(), reply: Promise.resolve() };
  }

  async #accept() {
    for await (const client of this.#listener) {
      if (!this.#up) {
        client.close();
        continue;
      }
      void this.#relay(client);
    }
  }

  async #relay(client: Deno.Conn) {
    let server: Deno.Conn;
    try {
      server = await Deno.connect({ hostname: "127.0.0.1", port: this.targetPort });
    } catch {
      client.close();
      return;
    }
    this.#connections.add(client);
    this.#connections.add(server);
    const pipe = async (from: Deno.Conn, to: Deno.Conn, direction: "request" | "reply") => {
      // Chunks keep their order: each is written once its delay has passed and the previous one is out.
      let chain = Promise.resolve();
      try {
        for await (const chunk of from.readable.values({ preventCancel: true })) {
          const due = performance.now() + this.oneWayDelayMs;
          chain = chain.then(async () => {
            const wait = due - performance.now();
            if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
            await this.#gates[direction];
            for (let written = 0; written < chunk.length;) written += await to.write(chunk.subarray(written));
          }).catch(() => closeQuietly(from));
        }
        await chain;
      } catch {
        // A closed side ends the relay of both.
      }
      for (const conn of [from, to]) {
        closeQuietly(conn);
        this.#connections.delete(conn);
      }
    };
    await Promise.all([pipe(client, server, "request"), pipe(server, client, "reply")]);
  }

  close(): void {
    this.cut();
    this.#listener.close();
  }
}
