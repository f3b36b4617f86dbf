/** The Audit tab's styles, for the route that shows it (audit-tab.tsx says why they are apart). */
import '../../../components/ui/data-table.css';
import './audit.css';
