import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';

/**
 * The built documentation site on its own port (it is a separate site with its own URLs), or
 * null when it has not been built. Pages are folders with an index.html (trailing slashes);
 * unknown paths get the site's own not-found page.
 */
export async function buildDocsSiteServer(
  docsDistDir: string,
  logLevel: string,
): Promise<FastifyInstance | null> {
  const notFoundPage = path.join(docsDistDir, '404.html');
  if (!existsSync(path.join(docsDistDir, 'index.html'))) return null;
  const notFoundHtml = existsSync(notFoundPage) ? await readFile(notFoundPage, 'utf8') : 'Not found';
  const docs = Fastify({ logger: { level: logLevel } });
  await docs.register(fastifyStatic, {
    root: docsDistDir,
    redirect: true,
    setHeaders: (response, filePath) => {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      response.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  docs.setNotFoundHandler((_request, reply) =>
    reply.code(404).type('text/html; charset=utf-8').send(notFoundHtml),
  );
  return docs;
}
