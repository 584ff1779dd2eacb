import { PageHeader } from "../../components/layout/page_header.tsx";

export default function Page() {
  return <PageHeader title="Dashboard" />;
}
