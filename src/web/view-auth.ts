import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** A fresh secret for the page's URL: 128 bits, URL-safe. */
export function createViewToken(): string {
  return randomBytes(16).toString("base64url");
}

/** The cookie that carries the token to the page's own asset, API and event requests; one per port, so two viewers do not collide. */
export function tokenCookieName(port: number): string {
  return `ctxkit_view_${port}`;
}

/** Where a request presents the token: `?token=`, the cookie, or `Authorization: Bearer`. */
export function presentedToken(request: IncomingMessage, url: URL, port: number): string | undefined {
  const fromQuery = url.searchParams.get("token");
  if (fromQuery !== null) return fromQuery;
  const authorization = request.headers.authorization;
  if (authorization?.startsWith("Bearer ")) return authorization.slice("Bearer ".length);
  const name = tokenCookieName(port);
  for (const part of (request.headers.cookie ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return undefined;
}

/** Compares in constant time, so the token cannot be guessed byte by byte from response times. */
export function isTokenValid(presented: string | undefined, token: string): boolean {
  if (presented === undefined) return false;
  const left = Buffer.from(presented);
  const right = Buffer.from(token);
  return left.length === right.length && timingSafeEqual(left, right);
}
