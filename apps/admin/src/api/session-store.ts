// The console keeps its short-lived access token and the logged-in user in localStorage, so a
// reload (and every tab) shares them. The refresh token is not here: it lives in an HttpOnly
// cookie that page scripts cannot read, and the API trades it for the next access token.

const TOKEN_KEY = 'switchboard.accessToken';
const USER_KEY = 'switchboard.user';

export type Role = 'platform_admin' | 'owner' | 'admin' | 'operator' | 'viewer';

export interface ConsoleUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  tenantId: string | null;
}

export function saveSession(token: string, user: ConsoleUser): void {
  localStorage.setItem(TOKEN_KEY, token);
  localStorage.setItem(USER_KEY, JSON.stringify(user));
}

export function clearSession(): void {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_KEY);
}

export function readToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

export function readUser(): ConsoleUser | null {
  const raw = localStorage.getItem(USER_KEY);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as ConsoleUser;
  } catch {
    return null;
  }
}
