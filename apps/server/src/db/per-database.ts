import type { Database } from './client.ts';

/**
 * Something built once for each open database and reused, such as a prepared query (which belongs
 * to the database that built it) or a cache of its reads. A server has one database; tests open
 * many in one process, which is why these are not plain module constants.
 */
export function perDatabase<Built>(build: (db: Database) => Built): (db: Database) => Built {
  const built = new WeakMap<Database, Built>();
  return (db) => {
    let value = built.get(db);
    if (value === undefined) {
      value = build(db);
      built.set(db, value);
    }
    return value;
  };
}
