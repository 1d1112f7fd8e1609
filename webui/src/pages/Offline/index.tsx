import { OfflinePage } from './OfflinePage';

export default function Offline() {
  return <OfflinePage />;
}
