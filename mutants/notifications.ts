/** Mutants of the EVT clauses that no operator of the delivery family (operators.ts) generates: notifications of section 6 about a reference never paid. */
import { editData, fabricatedConfirmation } from './edits.ts';
import type { Mutant } from './kinds.ts';

export const notificationMutants: Mutant[] = [
  {
    name: 'notification-for-unpaid-reference',
    clause: 'EVT-4',
    description: 'A "payment confirmed" notification is sent right after a reference is created.',
    transform: editData(['createReference'], (data, proxy) => {
      const to = proxy.payments.get(data.id)?.callbackUrl ?? proxy.webhookUrl;
      if (to) proxy.postInBackground(to, fabricatedConfirmation(data));
    }),
  },
  {
    name: 'late-notification-for-unpaid-reference',
    clause: 'EVT-4',
    description: 'A "payment confirmed" notification is sent two seconds after a reference is created, unpaid.',
    transform: editData(['createReference'], (data, proxy) => {
      const to = proxy.payments.get(data.id)?.callbackUrl ?? proxy.webhookUrl;
      if (to) setTimeout(() => proxy.postInBackground(to, fabricatedConfirmation(data)), 2000);
    }),
  },
];
