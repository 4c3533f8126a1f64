// Removes the generated API reference so pages of operations the server no longer has cannot linger.
import { rmSync } from 'node:fs';

rmSync(new URL('../docs/api-reference', import.meta.url), { recursive: true, force: true });
