import type { components } from '@letterset/api-client';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Me } from '../../app/session.ts';
import { GenerationProblems } from './GeneratingEmail.tsx';

const retryGeneration = vi.hoisted(() => vi.fn());
vi.mock('./ai-generation-api.ts', () => ({
  useRetryEmailGeneration: () => ({ mutate: retryGeneration, isPending: false, error: null }),
}));
vi.mock('../shell/workspace.ts', () => ({ useWorkspaceId: () => 3 }));

type Email = components['schemas']['Email'];

const failedEmail = {
  id: 9,
  name: 'Paris',
  prompt: 'A spring weekend in Paris',
  ai_generation_status: 'failed',
  ai_generation_error: 'The AI provider is limiting requests (HTTP 429); try again in 20 seconds.',
} as Email;

function renderBanner(email: Email, permissions: string[] = ['update_emails']) {
  const queryClient = new QueryClient();
  queryClient.setQueryData(['me'], { permissions } as unknown as Me);
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <GenerationProblems email={email} onDismiss={() => {}} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('the banner of a generation that failed', () => {
  beforeEach(() => retryGeneration.mockReset());

  it('keeps the brief and tries again with it', async () => {
    renderBanner(failedEmail);
    expect(screen.getByText(failedEmail.ai_generation_error as string)).toBeInTheDocument();
    expect(screen.getByText('A spring weekend in Paris')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retryGeneration).toHaveBeenCalledWith(undefined);
  });

  it('lets the brief be edited, then writes the email with the edited one', async () => {
    renderBanner(failedEmail);
    await userEvent.click(screen.getByRole('button', { name: 'Edit brief' }));
    const brief = screen.getByRole('textbox', { name: 'Brief' });
    expect(brief).toHaveValue('A spring weekend in Paris');
    await userEvent.clear(brief);
    expect(screen.getByRole('button', { name: 'Write it with this brief' })).toBeDisabled();
    await userEvent.type(brief, 'Paris for families, in May');
    await userEvent.click(screen.getByRole('button', { name: 'Write it with this brief' }));
    expect(retryGeneration).toHaveBeenCalledWith('Paris for families, in May');
  });

  it('offers no retry to someone who may not change the email', () => {
    renderBanner(failedEmail, []);
    expect(screen.getByText('A spring weekend in Paris')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });
});
