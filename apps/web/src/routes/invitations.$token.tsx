import { createFileRoute } from '@tanstack/react-router';
import { InvitationPage } from '../features/account/InvitationPage.tsx';

export const Route = createFileRoute('/invitations/$token')({
  component: InvitationPage,
});
