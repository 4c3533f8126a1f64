/** One person viewing the email: an open event stream, read as it arrives. */
export class Viewer {
  private waiting: ((at: number) => void)[] = [];
  private readonly controller = new AbortController();

  static async open(url: string, headers: Record<string, string>): Promise<Viewer> {
    const viewer = new Viewer();
    const response = await fetch(url, { headers, signal: viewer.controller.signal });
    if (!response.ok || !response.body) throw new Error(`events stream refused: ${response.status}`);
    const ready = new Promise<void>((resolve) =>
      viewer.read(response.body as ReadableStream<Uint8Array>, resolve),
    );
    await ready;
    return viewer;
  }

  nextCommentsChanged(): Promise<number> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  close(): void {
    this.controller.abort();
  }

  private async read(body: ReadableStream<Uint8Array>, onReady: () => void): Promise<void> {
    const decoder = new TextDecoder();
    let buffered = '';
    try {
      for await (const chunk of body) {
        buffered += decoder.decode(chunk, { stream: true });
        let end = buffered.indexOf('\n\n');
        while (end >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          if (block.startsWith('event: ready')) onReady();
          if (block.startsWith('event: comments_changed')) {
            const at = performance.now();
            for (const resolve of this.waiting.splice(0)) resolve(at);
          }
          end = buffered.indexOf('\n\n');
        }
      }
    } catch {
      // Aborted when the bench closes the viewer.
    }
  }
}
