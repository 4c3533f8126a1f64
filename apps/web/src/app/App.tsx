import { useEffect, useState } from 'react';
import { api } from './api.ts';

type ServerState =
  | { kind: 'checking' }
  | { kind: 'ready'; driver: string }
  | { kind: 'not_ready'; detail: string }
  | { kind: 'unreachable' };

/**
 * The application shell. For now it shows whether the server behind it is ready; the product's
 * screens (sign-in, design systems, the editor) are added here as they land.
 */
export function App() {
  const [server, setServer] = useState<ServerState>({ kind: 'checking' });

  useEffect(() => {
    let cancelled = false;
    api
      .GET('/readyz')
      .then(({ data, error }) => {
        if (cancelled) return;
        const readiness = data ?? error;
        if (readiness?.status === 'ready') setServer({ kind: 'ready', driver: readiness.database.driver });
        else if (readiness) {
          setServer({
            kind: 'not_ready',
            detail: `${readiness.database.pending_migrations} migrations pending`,
          });
        } else setServer({ kind: 'unreachable' });
      })
      .catch(() => !cancelled && setServer({ kind: 'unreachable' }));
    return () => {
      cancelled = true;
    };
  }, []);

  return (
    <main
      style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '64px auto', padding: '0 16px' }}
    >
      <h1>Letterset</h1>
      <p>Build marketing emails from your email design system.</p>
      <p role="status" aria-live="polite">
        {server.kind === 'checking' && 'Checking the server…'}
        {server.kind === 'ready' && `Server ready (database: ${server.driver})`}
        {server.kind === 'not_ready' && `Server not ready: ${server.detail}`}
        {server.kind === 'unreachable' && 'The server cannot be reached. Is it running?'}
      </p>
    </main>
  );
}
