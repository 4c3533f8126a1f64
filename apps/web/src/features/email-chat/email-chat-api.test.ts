import type { EmailChatEvent } from '@letterset/core';
import { describe, expect, it, vi } from 'vitest';

vi.mock('../../app/api.ts', () => ({ api: {} }));
const { readEventStream } = await import('./email-chat-api.ts');

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

describe('readEventStream', () => {
  it('hands over each event once whole, however the bytes are cut, skipping comments', async () => {
    const events: EmailChatEvent[] = [];
    const whole =
      'event: text\ndata: {"type":"text","delta":"Hé"}\n\n: keep-alive\n\nevent: changes\ndata: {"type":"changes","commands":[]}\n\nevent: done\ndata: {"type":"done"}\n\n';
    const bytes = new TextEncoder().encode(whole);
    // Cut between the two bytes of the "é", and inside the next event.
    const cut = [bytes.slice(0, 44), bytes.slice(44, 70), bytes.slice(70)];
    await readEventStream(
      new ReadableStream({
        start(controller) {
          for (const part of cut) controller.enqueue(part);
          controller.close();
        },
      }),
      (event) => events.push(event),
    );
    expect(events).toEqual([
      { type: 'text', delta: 'Hé' },
      { type: 'changes', commands: [] },
      { type: 'done' },
    ]);
  });

  it('reads a last event that the stream ends without a blank line after', async () => {
    const events: EmailChatEvent[] = [];
    await readEventStream(streamOf(['event: done\ndata: {"type":"done"}']), (event) => events.push(event));
    expect(events).toEqual([{ type: 'done' }]);
  });
});
