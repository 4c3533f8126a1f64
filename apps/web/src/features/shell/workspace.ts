import { useParams } from '@tanstack/react-router';

const LAST_WORKSPACE_KEY = 'letterset.lastWorkspaceId';

export function lastWorkspaceId(): number | null {
  const stored = Number(localStorage.getItem(LAST_WORKSPACE_KEY));
  return Number.isInteger(stored) && stored > 0 ? stored : null;
}

export function rememberWorkspace(workspaceId: number): void {
  localStorage.setItem(LAST_WORKSPACE_KEY, String(workspaceId));
}

/** The workspace in the address, for screens under /workspaces/$workspaceId. */
export function useWorkspaceId(): number {
  const { workspaceId } = useParams({ from: '/_app/workspaces/$workspaceId' });
  return Number(workspaceId);
}

/** The workspace in the address when there is one (the shell is also shown on settings pages). */
export function useOptionalWorkspaceId(): number | null {
  const params = useParams({ strict: false }) as { workspaceId?: string };
  return params.workspaceId ? Number(params.workspaceId) : (lastWorkspaceId() ?? null);
}
