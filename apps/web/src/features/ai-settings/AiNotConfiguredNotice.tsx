import { Alert, Anchor } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useCan } from '../../app/session.ts';

/**
 * For screens with AI actions while `useAiSettings().data.configured` is false: says why the
 * actions are missing instead of offering buttons that would fail. Those who may set a provider
 * get a link to Settings › AI.
 */
export function AiNotConfiguredNotice() {
  const can = useCan();
  return (
    <Alert color="yellow" title="AI is off">
      AI is not set up for your organization. An Admin can set up a provider in Settings › AI.
      {can('update_organization') && (
        <>
          {' '}
          <Anchor component={Link} to="/settings/ai" size="sm">
            Set up a provider
          </Anchor>
        </>
      )}
    </Alert>
  );
}
