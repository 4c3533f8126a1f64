import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ValidatePanel } from './ValidatePanel.tsx';

describe('ValidatePanel audiences', () => {
  it('names the audience of content and pre-send problems found in a branch', async () => {
    render(
      <MantineProvider env="test">
        <QueryClientProvider client={new QueryClient()}>
          <ValidatePanel
            validate={async () => ({
              valid: false,
              validation_errors: { hero: { 'gold.en-US.headline': ["can't be blank"] } },
            })}
            preSendChecks={async () => ({
              ready: true,
              blocking_count: 0,
              warning_count: 1,
              problems: [
                {
                  code: 'missing_alt_text',
                  severity: 'warning',
                  locale: 'de-DE',
                  branch: 'others',
                  component_instance_id: 'hero',
                  message: 'An image has no alt text',
                },
              ],
            })}
            description="Checks the saved email."
            describeOwner={() => 'Hero'}
            describeAudience={({ branch, component_instance_id }) =>
              component_instance_id === 'hero'
                ? ({ gold: 'Gold members', others: 'Everyone else' }[branch ?? ''] ?? null)
                : null
            }
            onOpenProblem={() => {}}
          />
        </QueryClientProvider>
      </MantineProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByText('Hero · headline · en-US · Gold members')).toBeTruthy();
    expect(await screen.findByText(/· Everyone else · An image has no alt text/)).toBeTruthy();
  });
});
