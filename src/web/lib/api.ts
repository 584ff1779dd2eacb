/**
 * The API client of spec section 7: cookies always sent, JSON bodies, errors as
 * "{status}: {body text or status text}", queries cached by key, never retried or refetched.
 */
import { QueryCache, QueryClient, type QueryFunction } from "@tanstack/react-query";
import type { SortingState } from "@tanstack/react-table";
import { noteFreshness } from "./freshness.ts";
import { showToast } from "./toast.ts";
import { isUnauthorizedError, redirectToLogin } from "./unauthorized.ts";

export class ApiError extends Error {
  constructor(readonly status: number, readonly bodyText: string, message: string) {
    super(message);
  }

  /** The server's `message` field when the body is a JSON error, else the raw text. */
  get serverMessage(): string {
    try {
      const parsed = JSON.parse(this.bodyText);
      if (parsed && typeof parsed.message === "string") return parsed.message;
    } catch {
      // Not JSON: the body text itself is the message.
    }
    return this.bodyText;
  }
}

async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = (await res.text()) || res.statusText;
  throw new ApiError(res.status, text, `${res.status}: ${text}`);
}

/** A GET answered as it comes: the caller reads its status and headers itself (badges, the sign-in check). */
export async function apiFetch(url: string, signal?: AbortSignal): Promise<Response> {
  const res = await fetch(url, { credentials: "include", signal });
  if (res.ok) noteFreshness(res);
  return res;
}

export async function apiRequest(
  method: string,
  url: string,
  data?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const res = await fetch(url, {
    method,
    headers: data !== undefined ? { "Content-Type": "application/json", ...headers } : headers,
    body: data !== undefined ? JSON.stringify(data) : undefined,
    credentials: "include",
  });
  await throwIfResNotOk(res);
  if (method === "GET") noteFreshness(res);
  return res;
}

/** POST/PATCH helper that returns the parsed JSON body. */
export async function apiJson<T>(
  method: string,
  url: string,
  data?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const res = await apiRequest(method, url, data, headers);
  return res.status === 204 ? (undefined as T) : (await res.json()) as T;
}

/** One page of a list the server pages, with the total it counted (X-Total-Count). */
export interface Page<T> {
  items: T[];
  total: number;
}

export async function apiPage<T>(url: string): Promise<Page<T>> {
  const res = await apiRequest("GET", url);
  const items = (await res.json()) as T[];
  return { items, total: Number(res.headers.get("X-Total-Count") ?? items.length) };
}

/** A table's sorting as a list's query: its first column is the sort key. */
export function setSortParams(params: URLSearchParams, sorting: SortingState): void {
  if (!sorting[0]) return;
  params.set("sort", sorting[0].id);
  params.set("order", sorting[0].desc ? "desc" : "asc");
}

type UnauthorizedBehavior = "returnNull" | "throw";

export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T> {
  return async ({ queryKey }) => {
    const res = await apiFetch(queryKey[0] as string);
    if (options.on401 === "returnNull" && res.status === 401) return null as T;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

export const AUTH_USER_KEY = "/api/auth/user";

export const queryClient = new QueryClient({
  // A screen's data query that meets an ended session sends the user back to sign-in. The
  // current-user query is exempt: its failure simply means "signed out".
  queryCache: new QueryCache({
    onError: (error, query) => {
      if (query.queryKey[0] !== AUTH_USER_KEY && isUnauthorizedError(error)) redirectToLogin(showToast);
    },
  }),
  defaultOptions: {
    queries: {
      queryFn: getQueryFn({ on401: "throw" }),
      refetchInterval: false,
      refetchOnWindowFocus: false,
      staleTime: Infinity,
      retry: false,
    },
    mutations: { retry: false },
  },
});
