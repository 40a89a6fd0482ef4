// One dashboard card: a titled section with its own month picker, busy while it counts, and the
// failure to count said in it with Retry. The three cards differ only in what they count.
import type { ReactNode } from 'react';
import { Card, ErrorState } from '@ejdesk/ui';
import styles from './dashboard.module.css';

export function DashboardCard(props: {
  id: string;
  title: string;
  picker: ReactNode;
  busy: boolean;
  failure: string | null;
  onRetry: () => void;
  children: ReactNode;
}) {
  return (
    <Card className={styles.card}>
      <section aria-labelledby={props.id} aria-busy={props.busy || undefined}>
        <header className={styles.cardHeader}>
          <h2 id={props.id} className={styles.cardTitle}>
            {props.title}
          </h2>
          {props.picker}
        </header>
        {props.failure && <ErrorState message={props.failure} onRetry={props.onRetry} />}
        {props.children}
      </section>
    </Card>
  );
}
