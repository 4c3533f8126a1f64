import Head from '@docusaurus/Head';
import { Redirect } from '@docusaurus/router';
import type { ReactNode } from 'react';

const docsEntry = '/docs/category/getting-started/';

/**
 * The docs have no page of their own at /docs/: readers start at the Getting started category.
 * The refresh tag covers readers and crawlers without JavaScript; `Redirect` covers in-app navigation.
 */
export default function DocsRoot(): ReactNode {
  return (
    <>
      <Head>
        <title>Getting started | Letterset Docs</title>
        <meta httpEquiv="refresh" content={`0; url=${docsEntry}`} />
        <link rel="canonical" href={docsEntry} />
      </Head>
      <Redirect to={docsEntry} />
    </>
  );
}
