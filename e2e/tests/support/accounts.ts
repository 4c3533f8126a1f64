import path from 'node:path';

/** The organization's first Admin, created through the first-run screen before the app tests. */
export const admin = {
  organization: 'Northwind Mail',
  firstName: 'Ada',
  lastName: 'Admin',
  email: 'ada@northwind.test',
  password: 'correct horse battery',
} as const;

/** The Admin's signed-in browser state, written by the first-run setup test. */
export const adminStorageState = path.join(import.meta.dirname, '..', '..', '.auth', 'admin.json');
