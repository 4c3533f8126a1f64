import BrowserOnly from '@docusaurus/BrowserOnly';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import Layout from '@theme/Layout';
import { createElement, type ReactNode, useEffect, useState } from 'react';

/**
 * The API reference of whichever Letterset server this site is configured for: RapiDoc fetches
 * `/openapi.yml` from the API host in the reader's browser, so the page always matches the running
 * server rather than the version the site was built from.
 */
function RapiDocReference({ specUrl }: { specUrl: string }): ReactNode {
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    // RapiDoc is a web component that touches `window` on import, so it is loaded in the browser only.
    let cancelled = false;
    import('rapidoc').then(() => {
      if (!cancelled) setLoaded(true);
    });
    return () => {
      cancelled = true;
    };
  }, []);

  if (!loaded) return <p className="container margin-vert--lg">Loading the API reference…</p>;
  // A custom element: its attributes are RapiDoc's configuration.
  return createElement('rapi-doc', {
    'spec-url': specUrl,
    'show-header': 'false',
    'primary-color': '#1890ff',
    'render-style': 'read',
    'allow-spec-url-load': 'false',
    'allow-spec-file-load': 'false',
    'allow-server-selection': 'false',
    theme: 'light',
    // System fonts: RapiDoc would otherwise fetch its font from a third-party host, which tells that
    // host about every reader and fails on closed networks.
    'load-fonts': 'false',
    'regular-font': 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    'mono-font': 'SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  });
}

export default function ApiReferencePage(): ReactNode {
  const { siteConfig } = useDocusaurusContext();
  const specUrl = `${String(siteConfig.customFields?.apiUrl)}/openapi.yml`;
  return (
    <Layout
      title="API reference"
      description="The Letterset REST API, read from your server's OpenAPI document."
    >
      <main className="api-reference-page">
        <BrowserOnly fallback={<p className="container margin-vert--lg">Loading the API reference…</p>}>
          {() => <RapiDocReference specUrl={specUrl} />}
        </BrowserOnly>
      </main>
    </Layout>
  );
}
