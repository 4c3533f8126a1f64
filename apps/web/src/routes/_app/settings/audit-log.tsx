import { createFileRoute } from '@tanstack/react-router';
import { AuditLogPage } from '../../../features/settings/AuditLogPage.tsx';

export const Route = createFileRoute('/_app/settings/audit-log')({
  component: AuditLogPage,
});
