import { type FormOf, RowsEditor } from '../../shared/RowsEditor.tsx';

interface CustomStyleRow {
  label: string;
  name: string;
  style: string;
}

/**
 * Custom styles as rows of label, name and CSS, in a form with a `custom_styles` list: a design
 * system's own, or a brand profile's, which replace the system's of the same name.
 */
export function CustomStylesRows<Values extends { custom_styles: CustomStyleRow[] }>({
  form,
  readOnly,
  emptyText,
}: {
  form: FormOf<Values>;
  readOnly: boolean;
  emptyText: string;
}) {
  return (
    <RowsEditor
      form={form}
      path="custom_styles"
      legend="Custom styles"
      columns={[
        { key: 'label', label: 'Label (in the toolbar)', placeholder: 'Highlight' },
        { key: 'name', label: 'Name', placeholder: 'highlight', monospace: true },
        { key: 'style', label: 'CSS', placeholder: 'color: #0066CC; font-weight: bold;', monospace: true },
      ]}
      newRow={() => ({ label: '', name: '', style: '' })}
      addLabel="Add custom style"
      readOnly={readOnly}
      emptyText={emptyText}
    />
  );
}
