// The Sales Dashboard (spec section 2): for all affiliates on /, or one on /affiliate/{id}.
export default function DashboardPage({ affiliateId }: { affiliateId: string | null }) {
  return (
    <section aria-labelledby="dashboard-heading" data-affiliate={affiliateId ?? undefined}>
      <h1 id="dashboard-heading">Sales Dashboard</h1>
    </section>
  );
}
