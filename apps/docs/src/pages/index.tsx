import Link from '@docusaurus/Link';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import Heading from '@theme/Heading';
import Layout from '@theme/Layout';
import type { ReactNode } from 'react';

interface Capability {
  title: string;
  description: string;
  to: string;
}

const capabilities: Capability[] = [
  {
    title: 'Email design systems',
    description:
      'Designers turn tested Liquid/HTML components into a library with typed, editable fields, and decide exactly what authors may change.',
    to: '/docs/category/email-design-systems/',
  },
  {
    title: 'An editor for marketers',
    description:
      'Marketers assemble on-brand emails from those components and fill in their fields, with a live preview of the finished HTML.',
    to: '/docs/getting_started/using_the_editor/',
  },
  {
    title: 'Review and approval',
    description:
      'Comments pinned to components, mentions, review stages and AI reviewers, so every email is checked before it is published.',
    to: '/docs/collaboration/approval_workflows/',
  },
  {
    title: 'Dynamic content and localization',
    description:
      'Conditionals, personalization tags and link tracking written once and compiled to each sending platform, in up to 52 locales.',
    to: '/docs/category/conditionals/',
  },
  {
    title: 'AI inside the system',
    description:
      'AI chooses components and fills the fields your design system exposes; fields marked hidden from AI stay untouched.',
    to: '/blog/ai-and-email-design-systems/',
  },
  {
    title: 'An open API',
    description:
      'Everything the app does goes through a versioned REST API described in OpenAPI 3.0.1, open to your own integrations.',
    to: '/api/',
  },
];

const audiences = [
  { who: 'Designers', what: 'build the design system once and keep every email on brand.' },
  { who: 'Marketers', what: 'put emails together quickly without touching code.' },
  { who: 'Reviewers', what: 'comment, request changes and approve in one place.' },
  { who: 'Developers', what: 'self-host Letterset and integrate through its API.' },
];

export default function Home(): ReactNode {
  const { siteConfig } = useDocusaurusContext();
  return (
    <Layout
      title="Home"
      description="Letterset is an open, self-hostable platform for authoring marketing emails from email design systems."
    >
      <header className="hero hero--letterset">
        <div className="container">
          <Heading as="h1" className="hero__title">
            Letterset
          </Heading>
          <p className="hero__subtitle hero-intro">
            An open, self-hostable platform for authoring marketing emails from email design systems:
            libraries of Liquid/HTML components with typed, editable fields. {siteConfig.tagline}
          </p>
          <div className="hero-actions">
            <Link className="button button--primary button--lg" to="/docs/category/getting-started/">
              Get started
            </Link>
            <Link className="button button--secondary button--lg" to="/api/">
              API reference
            </Link>
          </div>
        </div>
      </header>
      <main>
        <section className="capabilities">
          <div className="container">
            <Heading as="h2">What Letterset does</Heading>
            <p>
              Letterset is open source and developed in the open. Everything below ships in one self-hosted
              server: the web app, the versioned API, background jobs and these docs.
            </p>
            <div className="row">
              {capabilities.map((capability) => (
                <div key={capability.title} className="col col--4 capability">
                  <Heading as="h3">
                    <Link to={capability.to}>{capability.title}</Link>
                  </Heading>
                  <p>{capability.description}</p>
                </div>
              ))}
            </div>
          </div>
        </section>
        <section className="audiences">
          <div className="container">
            <Heading as="h2">Who it is for</Heading>
            <p>Teams that produce marketing emails, and the developers who work with them:</p>
            <ul>
              {audiences.map((audience) => (
                <li key={audience.who}>
                  <strong>{audience.who}</strong> {audience.what}
                </li>
              ))}
            </ul>
            <p>
              New here? Start with{' '}
              <Link to="/docs/getting_started/running_letterset/">Running Letterset</Link>, then read the{' '}
              <Link to="/docs/using_the_api/api_conventions/">API conventions</Link>.
            </p>
          </div>
        </section>
      </main>
    </Layout>
  );
}
