// The Reports screen (spec section 2).
export default function ReportsPage() {
  return (
    <section aria-labelledby="reports-heading">
      <h1 id="reports-heading">Reports</h1>
      <p>Reports are generated monthly and are available from the 15th of the month after the period.</p>
    </section>
  );
}
