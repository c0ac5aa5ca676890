import { EmptyState } from './empty-state';
import { PageHeader } from './page-header';

export function ComingSoonPage({ title }: { title: string }) {
  return (
    <div className="page">
      <PageHeader title={title} />
      <div className="card">
        <EmptyState icon="◷" title={`${title} is coming in part 2`}>
          <span className="small">The gateway already serves this resource over its API; the console page follows.</span>
        </EmptyState>
      </div>
    </div>
  );
}
