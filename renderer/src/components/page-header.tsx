import { useEffect, type ReactNode } from 'react';

/** The page's heading; it also names the browser tab after the page. */
export function PageHeader({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children?: ReactNode;
}) {
  useEffect(() => {
    document.title = `${title} · Switchyard`;
  }, [title]);
  return (
    <header className="page-header">
      <div className="page-title">
        <h1>{title}</h1>
        {description && <p>{description}</p>}
      </div>
      {children}
    </header>
  );
}
