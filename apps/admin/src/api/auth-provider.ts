import type { AuthProvider } from 'react-admin';
import { API_URL, httpClient } from './http-client';
import { clearSession, readToken, readUser, saveSession, type ConsoleUser } from './session-store';

interface LoginAnswer {
  accessToken: string;
  user: ConsoleUser;
}

export const authProvider: AuthProvider = {
  async login({ email, password }: { email: string; password: string }) {
    const { json } = await httpClient(`${API_URL}/auth/login`, {
      method: 'POST',
      body: JSON.stringify({ email, password }),
    });
    const answer = json as LoginAnswer;
    saveSession(answer.accessToken, answer.user);
  },

  async logout() {
    clearSession();
  },

  async checkAuth() {
    if (!readToken()) throw new Error('Please log in.');
  },

  // 401: the token expired or the user was disabled, so log out. 403 is a missing permission
  // on one action; the user stays logged in and sees the error.
  async checkError(error: { status?: number }) {
    if (error?.status === 401) {
      clearSession();
      throw new Error('Your session has ended; please log in again.');
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
