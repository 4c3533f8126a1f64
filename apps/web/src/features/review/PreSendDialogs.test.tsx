import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../shared/api-error.ts';
import type { PreSendProblem } from '../exports/exports-api.ts';
import { ChecksRefusalModal, ForcePublishModal } from './PreSendDialogs.tsx';

const emptyLink = (locale: 'en-US' | 'de-DE'): PreSendProblem => ({
  code: 'empty_link',
  severity: 'blocking',
  locale,
  branch: 'null_branch',
  component_instance_id: null,
  message: 'A link has no target',
});
const missingAlt: PreSendProblem = {
  code: 'missing_alt_text',
  severity: 'warning',
  locale: 'de-DE',
  branch: 'null_branch',
  component_instance_id: null,
  message: 'An image has no alt text',
};

const checks = vi.hoisted(() => ({ problems: [] as unknown[] }));
vi.mock('../exports/exports-api.ts', () => ({
  checksQuery: () => ({
    queryKey: ['checks'],
    queryFn: async () => ({
      ready: false,
      blocking_count: checks.problems.filter((problem) => (problem as PreSendProblem).severity === 'blocking')
        .length,
      warning_count: 1,
      problems: checks.problems,
    }),
  }),
}));

function wrap(children: ReactNode) {
  return render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        {children}
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('ForcePublishModal', () => {
  it('lists the blocking problems the checks find and acknowledges exactly those', async () => {
    checks.problems = [emptyLink('en-US'), emptyLink('de-DE'), missingAlt];
    const onPublish = vi.fn(async () => {});
    wrap(<ForcePublishModal workspaceId={1} emailId={7} opened onClose={() => {}} onPublish={onPublish} />);
    const list = await screen.findByRole('alert');
    expect(list).toHaveTextContent('You are overriding 2 blocking problems');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['en-US · A link has no target', 'de-DE · A link has no target']);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Override and publish' }));
    expect(onPublish).toHaveBeenCalledWith(['empty_link', 'empty_link']);
  });

  it('shows the current problems when they changed since the dialog opened, and confirms those next', async () => {
    checks.problems = [emptyLink('en-US')];
    const onPublish = vi
      .fn<(codes: string[]) => Promise<void>>()
      .mockRejectedValueOnce(
        new ApiError(409, {
          message: 'The blocking problems changed since you confirmed them',
          code: 'pre_send_checks_changed',
          problems: [emptyLink('en-US'), { ...emptyLink('de-DE'), code: 'invalid_content' }],
        }),
      )
      .mockResolvedValueOnce(undefined);
    wrap(<ForcePublishModal workspaceId={1} emailId={7} opened onClose={() => {}} onPublish={onPublish} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Override and publish' }));
    expect(await screen.findByText('The blocking problems changed since you confirmed them')).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent('You are overriding 2 blocking problems');
    await user.click(screen.getByRole('button', { name: 'Override and publish' }));
    expect(onPublish).toHaveBeenLastCalledWith(['empty_link', 'invalid_content']);
  });

  it('offers a plain force publish when nothing blocks', async () => {
    checks.problems = [missingAlt];
    wrap(<ForcePublishModal workspaceId={1} emailId={7} opened onClose={() => {}} onPublish={vi.fn()} />);
    expect(await screen.findByText('No blocking problems')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Force publish' })).toBeEnabled();
  });
});

describe('ChecksRefusalModal', () => {
  it('says which step was refused and lists the problems by locale', async () => {
    wrap(
      <ChecksRefusalModal
        refusal={{ step: 'approve', message: 'The email cannot be approved', problems: [emptyLink('de-DE')] }}
        onClose={() => {}}
      />,
    );
    expect(
      await screen.findByText('Not approved: the pre-send checks found blocking problems'),
    ).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent('de-DE · A link has no target');
    expect(screen.getByText(/You can still request changes/)).toBeVisible();
  });
});
