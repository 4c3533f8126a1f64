/** One server-sent event as a browser's EventSource hands it over. */
export interface ReceivedEvent {
  event: string;
  data: unknown;
}

/**
 * Reads a `text/event-stream` response as a browser would (events split on blank lines, `event:`
 * and `data:` fields, comment lines skipped), for tests that follow a live stream.
 */
export class EventStreamReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffered = '';
  private readonly received: ReceivedEvent[] = [];

  constructor(response: Response) {
    if (!response.body) throw new Error('the response has no body to read events from');
    this.reader = response.body.getReader();
  }

  /** The next event named `name` (earlier events of other names are passed over), or an error after `timeoutMs`. */
  async next(name: string, timeoutMs = 5_000): Promise<ReceivedEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.received.findIndex((event) => event.event === name);
      if (index >= 0) return this.received.splice(index, 1)[0] as ReceivedEvent;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no "${name}" event within ${timeoutMs} ms`);
      let timer: NodeJS.Timeout | undefined;
      const chunk = await Promise.race([
        this.reader.read(),
        new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), left);
        }),
      ]).finally(() => clearTimeout(timer));
      if (chunk === 'timeout') continue;
      if (chunk.done) throw new Error(`the stream ended before a "${name}" event`);
      this.take(this.decoder.decode(chunk.value, { stream: true }));
    }
  }

  /** Resolves when the server ends the stream. */
  async ended(timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const chunk = await this.reader.read();
      if (chunk.done) return;
    }
    throw new Error(`the stream was still open after ${timeoutMs} ms`);
  }

  async close(): Promise<void> {
    await this.reader.cancel().catch(() => {});
  }

  private take(text: string): void {
    this.buffered += text;
    let end = this.buffered.indexOf('\n\n');
    while (end >= 0) {
      const block = this.buffered.slice(0, end);
      this.buffered = this.buffered.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (data.length > 0) this.received.push({ event, data: JSON.parse(data.join('\n')) });
      end = this.buffered.indexOf('\n\n');
    }
  }
}
