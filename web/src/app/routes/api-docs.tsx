import { PageHeader } from '../../components/layouts/page-header';
import { ApiReference } from '../../features/api-docs/components/api-reference';
import './screens.css';

/** The API reference, from GET /api/openapi.json (reachable by URL and from the landing page's footer). */
export default function ApiDocsRoute() {
  return (
    <>
      <title>API Reference · AI Trading Assistant</title>
      <PageHeader title="API Reference" subtitle="Every endpoint, generated from the server's contracts" />
      <ApiReference />
    </>
  );
}
