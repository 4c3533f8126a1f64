import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AiGenerationBadge } from './AiGenerationBadge.tsx';

function renderBadge(email: Parameters<typeof AiGenerationBadge>[0]['generation']) {
  return render(
    <MantineProvider>
      <AiGenerationBadge generation={email} />
    </MantineProvider>,
  );
}

describe('an email’s AI generation in the lists', () => {
  it('marks an email the AI is writing', () => {
    renderBadge({ ai_generation_status: 'generating', ai_generation_error: null });
    expect(screen.getByText('AI writing')).toBeInTheDocument();
  });

  it('marks a failed generation, not as a plain draft, and says why on hover', async () => {
    renderBadge({
      ai_generation_status: 'failed',
      ai_generation_error: 'The AI provider is limiting requests (HTTP 429); try again in 20 seconds.',
    });
    const badge = screen.getByText('AI failed');
    await userEvent.hover(badge);
    expect(
      await screen.findByText('The AI provider is limiting requests (HTTP 429); try again in 20 seconds.'),
    ).toBeInTheDocument();
  });

  it('shows nothing for an email written without problems, or by hand', () => {
    renderBadge({ ai_generation_status: 'done', ai_generation_error: null });
    renderBadge({ ai_generation_status: null, ai_generation_error: null });
    expect(screen.queryByText(/^AI /)).toBeNull();
  });
});
