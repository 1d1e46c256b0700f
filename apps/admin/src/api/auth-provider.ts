import type { AuthProvider } from 'react-admin';
import { messageOf } from './api-fetch';
import { API_URL, refreshSession } from './http-client';
import { api } from './switchboard-client';
import { clearSession, readToken, readUser, saveSession, type ConsoleUser } from './session-store';

interface LoginAnswer {
  accessToken: string;
  user: ConsoleUser;
}

export const authProvider: AuthProvider = {
  // The answer also sets the HttpOnly refresh cookie, which keeps the session past the access token.
  async login({ email, password }: { email: string; password: string }) {
    const { data, error } = await api.POST('/v1/admin/auth/login', { body: { email, password } });
    if (error || !data) throw new Error(messageOf({ body: error }));
    const answer = data as LoginAnswer;
    saveSession(answer.accessToken, answer.user);
  },

  // Ends the session on the server (refresh cookie and access token), then forgets it here even
  // if the API cannot be reached: logging out must never leave the user stuck logged in.
  async logout() {
    const token = readToken();
    try {
      await fetch(`${API_URL}/auth/logout`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: token ? { Authorization: `Bearer ${token}` } : {},
      });
    } catch {
      // Offline: the refresh cookie still expires on its own.
    } finally {
      clearSession();
    }
  },

  // No access token (a new tab after the storage was cleared): the refresh cookie may still hold a session.
  async checkAuth() {
    if (readToken()) return;
    if (!(await refreshSession(null))) throw new Error('Please log in.');
  },

  // A 401 reaching here survived httpClient's refresh: the session has ended, so log out. 403 is
  // a missing permission on one action; the user stays logged in and sees the error.
  // A suspended tenant refuses every call (403 tenant-suspended): back to the login page, which
  // says so when its user signs in again.
  async checkError(error: { status?: number; body?: { error?: { code?: string } } }) {
    if (error?.status === 401) {
      clearSession();
      throw new Error('Your session has ended; please log in again.');
    }
    if (error?.status === 403 && error.body?.error?.code === 'tenant-suspended') {
      clearSession();
      throw new Error('Your tenant is suspended; ask the platform operator.');
    }
  },

  async getIdentity() {
    const user = readUser();
    if (!user) throw new Error('Not logged in.');
    return { id: user.id, fullName: user.name || user.email };
  },

  async getPermissions() {
    return readUser()?.role;
  },
};
