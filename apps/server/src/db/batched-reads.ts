interface Batch<Key, Answer> {
  load: (keys: Key[]) => Promise<Map<Key, Answer>>;
  callers: Map<Key, PromiseWithResolvers<Answer | undefined>>;
}

/**
 * Reads asked for in the same turn of the event loop go to the database together: one round trip
 * for each group of reads that one query can answer (say, emails of one workspace seen by callers
 * who see the same projects), however many keys they ask for, and each key is read once.
 *
 * A batch starts on `setImmediate`, after the turn's I/O callbacks have run, so it starts after
 * every request it answers arrived: each caller sees the database as it was after its own request
 * came in, never an answer fetched before a write it could have seen committed. That is why a
 * batch under way is never joined, only one that has not started yet.
 *
 * Callers asking for the same key share its answer: treat it as read-only.
 */
export class BatchedReads<Key, Answer> {
  private readonly notStarted = new Map<string, Batch<Key, Answer>>();

  /** The answer for `key`, or undefined if `load` found none; `load` is the first caller's of the batch. */
  read(
    group: string,
    key: Key,
    load: (keys: Key[]) => Promise<Map<Key, Answer>>,
  ): Promise<Answer | undefined> {
    let batch = this.notStarted.get(group);
    if (!batch) {
      const newBatch: Batch<Key, Answer> = { load, callers: new Map() };
      this.notStarted.set(group, newBatch);
      setImmediate(() => {
        this.notStarted.delete(group);
        start(newBatch);
      });
      batch = newBatch;
    }
    let caller = batch.callers.get(key);
    if (!caller) {
      caller = Promise.withResolvers();
      batch.callers.set(key, caller);
    }
    return caller.promise;
  }
}

function start<Key, Answer>(batch: Batch<Key, Answer>): void {
  batch.load([...batch.callers.keys()]).then(
    (answers) => {
      for (const [key, caller] of batch.callers) caller.resolve(answers.get(key));
    },
    (error: unknown) => {
      for (const caller of batch.callers.values()) caller.reject(error);
    },
  );
}
