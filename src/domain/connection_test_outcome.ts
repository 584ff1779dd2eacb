/**
 * What a failed partner-connection test means for an operator. The test's own message (from the
 * server's probe) names hosts, ports and settings: it stays as the detail for administrators, and
 * the operator reads one plain sentence about the partner.
 *
 * @module
 */

const MS_PER_SECOND = 1000;

/** The probe's messages, by the part that tells the kind of failure apart. */
const OUTCOMES: { pattern: RegExp; sentence: (match: RegExpMatchArray) => string }[] = [
  {
    pattern: /^No response from .+ within (\d+) ms$/,
    sentence: (match) =>
      `The partner did not answer within ${Math.round(Number(match[1]) / MS_PER_SECOND)} s.`,
  },
  { pattern: /^Connection refused by /, sentence: () => "The partner's system refused the connection." },
  { pattern: /^Connection reset by /, sentence: () => "The partner's system closed the connection." },
  { pattern: /could not be resolved$/, sentence: () => "The partner's address could not be found." },
  {
    pattern: /^TLS verification failed/,
    sentence: () => "The partner's security certificate could not be verified.",
  },
  {
    pattern: /no network permission|^Refused: /,
    sentence: () => "This console is not allowed to reach the partner. An administrator must allow it.",
  },
  {
    pattern: /^Endpoint answered HTTP (\d{3})[^:]*: the configured path does not exist$/,
    sentence: (match) =>
      `The partner's address is configured with a path that does not exist (HTTP ${match[1]}).`,
  },
  {
    pattern: /^Endpoint answered HTTP (5\d\d)/,
    sentence: (match) => `The partner's system reported an error (HTTP ${match[1]}).`,
  },
  {
    pattern: /^Endpoint redirect/,
    sentence: () => "The partner's address points elsewhere and was not followed.",
  },
  { pattern: /^Invalid endpoint/, sentence: () => "The partner's address in this connection is not valid." },
  {
    pattern: /^No API endpoint is configured/,
    sentence: () => "This connection has no partner address to test.",
  },
];

export const GENERIC_FAILURE = "The partner could not be reached.";

export function operatorFailureSentence(message: string): string {
  for (const outcome of OUTCOMES) {
    const match = message.match(outcome.pattern);
    if (match) return outcome.sentence(match);
  }
  return GENERIC_FAILURE;
}

/**
 * The toast for a test result: a success with its measured latency; a failure as the operator's
 * sentence with the probe's message kept as the administrators' detail, and no latency, since no
 * exchange with the partner took place to be timed.
 */
export function connectionTestToast(result: { success: boolean; message: string; latency: number }): {
  title: string;
  description: string;
} {
  if (result.success) {
    return {
      title: "Connection Successful",
      description: `${result.message} (latency ${result.latency} ms)`,
    };
  }
  return {
    title: "Connection Failed",
    description: `${operatorFailureSentence(result.message)} Detail for administrators: ${result.message}`,
  };
}
