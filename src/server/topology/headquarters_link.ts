/**
 * A regional node's view of headquarters, which executes its changes: asked every sync interval
 * (GET /api/system/health, bounded by HEALTH_TIMEOUT_MS) and told by every forwarded change, so that
 * the node's status says changes are paused while they are, and a change is refused at once,
 * "not done", while headquarters is known to be unreachable instead of waiting for its deadline.
 */
/** A health answer slower than this counts as a failure. */
export const HEALTH_TIMEOUT_MS = 1_000;
/** The public route headquarters answers it on. */
export const HEALTH_PATH = "/api/system/health";

export interface HealthAnswer {
  changesAccepted: boolean;
}

export class HeadquartersLink {
  readonly #url: string;
  #timer: ReturnType<typeof setInterval> | undefined;
  #failingSinceMs: number | null = null;
  #changesAccepted = true;
  #asking = false;

  constructor(headquartersUrl: string) {
    this.#url = headquartersUrl;
  }

  /** Asks every `intervalMs` from now on. */
  start(intervalMs: number): void {
    void this.ask();
    this.#timer = setInterval(() => void this.ask(), intervalMs);
    Deno.unrefTimer(this.#timer);
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  async ask(): Promise<void> {
    if (this.#asking) return;
    this.#asking = true;
    try {
      const answer = await fetch(`${this.#url}${HEALTH_PATH}`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
      if (!answer.ok) throw new Error(`headquarters answered ${answer.status}`);
      this.succeeded(((await answer.json()) as HealthAnswer).changesAccepted);
    } catch {
      this.failed();
    } finally {
      this.#asking = false;
    }
  }

  succeeded(changesAccepted = this.#changesAccepted): void {
    this.#failingSinceMs = null;
    this.#changesAccepted = changesAccepted;
  }

  /** A failed connection to headquarters. */
  failed(): void {
    this.#failingSinceMs ??= Date.now();
  }

  /**
   * Whether headquarters answered the last time it was asked. Unlike the primary's sync, which
   * sqld's log compaction holds back for seconds while changes still succeed, a failed answer from
   * headquarters means a change would fail too.
   */
  get reachable(): boolean {
    return this.#failingSinceMs === null;
  }

  /** Whether headquarters said it accepts changes (it reaches the primary) at its last answer. */
  get changesAccepted(): boolean {
    return this.#changesAccepted;
  }
}
