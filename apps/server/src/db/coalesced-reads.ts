/**
 * Identical reads asked for in the same turn of the event loop share one database round trip.
 *
 * The shared read starts on `setImmediate`, after the turn's I/O callbacks have run, so it starts
 * after every request it answers arrived: each caller sees the database as it was after its own
 * request came in, never an answer fetched before a write it could have seen committed. That is
 * why a read already under way is never joined, only one that has not started yet.
 *
 * Callers share the answer: treat it as read-only.
 */
export class CoalescedReads<Answer> {
  private readonly notStarted = new Map<string, Promise<Answer>>();

  read(key: string, load: () => Promise<Answer>): Promise<Answer> {
    const waiting = this.notStarted.get(key);
    if (waiting) return waiting;
    const answer = new Promise<Answer>((resolve, reject) => {
      setImmediate(() => {
        this.notStarted.delete(key);
        load().then(resolve, reject);
      });
    });
    this.notStarted.set(key, answer);
    return answer;
  }
}
