/** Mutants of the EVT clauses that no operator of the delivery family (operators.ts) generates: notifications of section 6 about a reference never paid. */
import { editData, fabricatedConfirmation } from './edits.ts';
import type { Mutant } from './kinds.ts';
import type { ProxyContext } from './proxy.ts';

/** Where the service notifies a reference: its callbackUrl, else the webhook (section 6). */
const notificationAddressOf = (proxy: ProxyContext, paymentId: string) => proxy.payments.get(paymentId)?.callbackUrl ?? proxy.webhookUrl;

export const notificationMutants: Mutant[] = [
  {
    name: 'notification-for-unpaid-reference',
    clause: 'EVT-4',
    description: 'A "payment confirmed" notification is sent right after a reference is created.',
    transform: editData(['createReference'], (data, proxy) => {
      const to = notificationAddressOf(proxy, data.id);
      if (to) proxy.postInBackground(to, fabricatedConfirmation(data));
    }),
  },
  {
    name: 'late-notification-for-unpaid-reference',
    clause: 'EVT-4',
    description: 'A "payment confirmed" notification is sent two seconds after a reference is created, unpaid.',
    transform: editData(['createReference'], (data, proxy) => {
      const to = notificationAddressOf(proxy, data.id);
      if (to) setTimeout(() => proxy.postInBackground(to, fabricatedConfirmation(data)), 2000);
    }),
  },
  {
    name: 'expired-reference-notified',
    clause: 'EVT-4',
    description:
      'A reference whose window closes unpaid is notified a second after it closed (an "expired" notification, which section 6 does not send), at its callbackUrl or the webhook.',
    transform: editData(['createReference'], (data, proxy, request) => {
      const closesInMs = Date.parse(String((request.json as { validDate?: { end?: unknown } } | undefined)?.validDate?.end)) - Date.now();
      if (!(closesInMs >= 0 && closesInMs < 60_000)) return;
      const to = notificationAddressOf(proxy, data.id);
      const expired = { webhook: { id: data.id, action: 'payment_expired' }, payments: [{ ...data, stateDetails: { state: 'expired' } }] };
      if (to) setTimeout(() => proxy.postInBackground(to, expired), closesInMs + 1000);
    }),
  },
];
