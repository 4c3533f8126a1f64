import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderableSession } from '../editor/test-session.tsx';
import { ReviewPanel } from './ReviewPanel.tsx';
import { type ReviewState, useReviewState } from './review-state.ts';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls, SESSION_EXPIRED_EVENT: 'test:session-expired' }));
vi.mock('../../app/session.ts', () => ({
  useMe: () => ({ user: { id: 1 }, permissions: ['email_commenting'] }),
  useCan: () => () => true,
}));
vi.mock('../live/use-email-events.ts', () => ({ useEmailEvents: () => {} }));

// The comment box grows with its text, listening for web fonts loading, which jsdom lacks.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => {}, removeEventListener: () => {} },
  });
}

const ok = (data: unknown) => Promise.resolve({ data, response: new Response(null, { status: 200 }) });

/**
 * The editor on a phone: the review state lives with the editor, the Review panel in a sheet that
 * is closed while a pin is placed and opens for its comment.
 */
function PhoneEditor({ onState }: { onState: (review: ReviewState, openSheet: () => void) => void }) {
  const review = useReviewState('en-US');
  const [sheetOpen, setSheetOpen] = useState(false);
  onState(review, () => setSheetOpen(true));
  return sheetOpen ? <ReviewPanel workspaceId={1} emailId={5} review={review} /> : null;
}

describe('ReviewPanel', () => {
  it('keeps a pin placed while it was closed, and saves the comment with it', async () => {
    apiCalls.GET.mockImplementation(() => ok({ results: [], pagination: { total: 0 } }));
    apiCalls.POST.mockImplementation((_path: string, { body }: { body: object }) => ok({ id: 9, ...body }));
    const { Live } = renderableSession();
    let review: ReviewState | undefined;
    let openSheet = () => {};
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <Live>
          {() => (
            <PhoneEditor
              onState={(state, open) => {
                review = state;
                openSheet = open;
              }}
            />
          )}
        </Live>
      </QueryClientProvider>,
    );
    const pin = {
      component_instance_id: 'hero',
      branch_key: null,
      coordinates: { center_offset_x_px: 12, y: 30 },
      label: 'Hero',
    };
    act(() => review?.setPendingPin(pin));
    act(() => openSheet());

    expect(await screen.findByText('New comment pinned on Hero')).toBeVisible();
    await userEvent.type(screen.getByRole('combobox', { name: 'Comment' }), 'Tighter headline?');
    await userEvent.click(screen.getByRole('button', { name: 'Comment' }));
    await waitFor(() => expect(apiCalls.POST).toHaveBeenCalled());
    expect(apiCalls.POST.mock.calls[0]?.[1].body).toMatchObject({
      body: 'Tighter headline?',
      pin_data: { component_instance_id: 'hero', branch_key: null, coordinates: pin.coordinates },
    });
  });
});
