import {
  AppShell,
  Burger,
  Group,
  Menu,
  NavLink,
  ScrollArea,
  Select,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link, Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { usesWholeWindow, visibleNavigation } from '../../app/navigation.ts';
import { meQuery, signOut, useMe } from '../../app/session.ts';
import { NotificationBell } from '../notifications/NotificationBell.tsx';
import { useOptionalWorkspaceId } from './workspace.ts';

/** The signed-in frame; nothing while signing out (or an expired session) leads to the sign-in page. */
export function AppLayout() {
  const { data: me } = useSuspenseQuery(meQuery);
  return me ? <SignedInFrame /> : null;
}

/** Header with the workspace switcher and user menu, navigation by permission, the page. */
function SignedInFrame() {
  const [navigationOpen, { toggle: toggleNavigation, close: closeNavigation }] = useDisclosure();
  const me = useMe();
  const workspaceId = useOptionalWorkspaceId();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const sections = visibleNavigation(me.permissions);
  const wholeWindow = usesWholeWindow(pathname);

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{
        width: 240,
        breakpoint: 'sm',
        collapsed: { mobile: !navigationOpen, desktop: wholeWindow && !navigationOpen },
      }}
      padding={wholeWindow ? 'xs' : 'lg'}
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={navigationOpen}
              onClick={toggleNavigation}
              hiddenFrom={wholeWindow ? undefined : 'sm'}
              size="sm"
              aria-label="Toggle navigation"
            />
            <Text fw={700} component={Link} to="/">
              Letterset
            </Text>
            <WorkspaceSwitcher currentWorkspaceId={workspaceId} />
          </Group>
          <Group gap="xs" wrap="nowrap">
            <NotificationBell />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm" aria-label="Main navigation">
        <ScrollArea>
          {sections.map((section) => (
            <div key={section.label}>
              <Text size="xs" fw={600} c="dimmed" tt="uppercase" px="sm" mt="md" mb={4}>
                {section.label}
              </Text>
              {section.items.map((item) => {
                const to = item.to.replace('$workspaceId', String(workspaceId ?? ''));
                if (item.to.includes('$workspaceId') && workspaceId === null) return null;
                return (
                  <NavLink
                    key={item.to}
                    component={Link}
                    to={to}
                    label={item.label}
                    active={pathname === to || pathname.startsWith(`${to}/`)}
                    onClick={closeNavigation}
                  />
                );
              })}
            </div>
          ))}
        </ScrollArea>
      </AppShell.Navbar>

      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}

function WorkspaceSwitcher({ currentWorkspaceId }: { currentWorkspaceId: number | null }) {
  const me = useMe();
  const navigate = useNavigate();
  if (me.workspaces.length === 0) return null;
  return (
    <Select
      aria-label="Workspace"
      size="xs"
      w={200}
      visibleFrom="xs"
      allowDeselect={false}
      value={currentWorkspaceId === null ? null : String(currentWorkspaceId)}
      data={me.workspaces.map((workspace) => ({ value: String(workspace.id), label: workspace.name }))}
      onChange={(value) => {
        if (value) navigate({ to: '/workspaces/$workspaceId', params: { workspaceId: value } });
      }}
    />
  );
}

function UserMenu() {
  const me = useMe();
  const fullName = `${me.user.first_name} ${me.user.last_name}`;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        {/* The name read out starts with the visible one, so speech users can say what they see. */}
        <UnstyledButton aria-label={`${fullName}: Account menu`}>
          <Text size="sm" fw={500}>
            {fullName}
          </Text>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          {me.organization.name} · {me.role.name}
        </Menu.Label>
        <Menu.Item component={Link} to="/account">
          Profile
        </Menu.Item>
        <Menu.Item onClick={signOut}>Sign out</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
