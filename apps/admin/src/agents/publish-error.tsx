import { Alert } from '@mui/material';
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';

export type ConfigPath = (string | number)[];

/** The engine's refusal of the last publish: its message and the JSON path into the config. */
export interface PublishError {
  message: string;
  path: ConfigPath;
}

interface PublishErrorState {
  error: PublishError | null;
  setError: (e: PublishError | null) => void;
}

const Ctx = createContext<PublishErrorState>({ error: null, setError: () => undefined });

export function PublishErrorProvider({ children }: { children: ReactNode }) {
  const [error, setError] = useState<PublishError | null>(null);
  const value = useMemo(() => ({ error, setError }), [error]);
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export const usePublishError = () => useContext(Ctx);

const startsWith = (path: ConfigPath, prefix: ConfigPath) => prefix.every((p, i) => path[i] === p);

/**
 * The publish error, shown where it belongs: inside the part of the form whose config path
 * `prefix` starts the error's path (and that no narrower part claims, via `unless`).
 */
export function PublishErrorAt({ prefix, unless }: { prefix: ConfigPath; unless?: (path: ConfigPath) => boolean }) {
  const { error } = usePublishError();
  if (!error || !startsWith(error.path, prefix) || unless?.(error.path)) return null;
  return (
    <Alert severity="error" data-testid="publish-error-here" sx={{ my: 1 }}>
      {error.message}
    </Alert>
  );
}

/** `flows.0.steps.1.tools`, as people read a path. */
export const pathLabel = (path: ConfigPath) => path.join('.') || '(the whole config)';
