import { Link } from 'react-router-dom';
import { EmptyState } from '../components/empty-state';

export function NotFoundPage() {
  return (
    <div className="page">
      <EmptyState icon="?" title="No page here">
        <Link to="/chat">Go to the chat playground</Link>
      </EmptyState>
    </div>
  );
}
