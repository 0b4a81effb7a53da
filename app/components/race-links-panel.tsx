/** The form settings page's race links (decision 0058): the form's race, the races of a choice field's options, and the racer field mapping. */
import { SelectField, SetupForm, type FieldErrors } from "./form-kit";

interface Named {
  id: string;
  name: string;
}

export interface RaceLinksPanelData {
  races: Named[];
  formRace: { courses: Named[]; startGroups: Named[] } | null;
  choiceFields: { id: string; label: string; options: { id: string; label: string }[] }[];
  optionRaces: Record<string, { courses: Named[]; startGroups: Named[] }>;
  targets: { key: string; label: string }[];
  defaults: Record<string, string>;
  /** The form's input fields a racer field can be filled from. */
  inputs: { id: string; label: string }[];
  values: Record<string, string>;
}

const none = { value: "", label: "None" };
const choicesOf = (list: Named[]) => [none, ...list.map((x) => ({ value: x.id, label: x.name }))];

export function RaceLinksPanel({ data, errors, typed }: { data: RaceLinksPanelData; errors: FieldErrors; typed: Record<string, string> | null }) {
  // A refused form shows what was sent; otherwise what is stored.
  const v = (name: string) => (typed ? (typed[name] ?? "") : (data.values[name] ?? ""));
  const field = data.choiceFields.find((f) => f.id === data.values.option_field);
  const inputLabel = (id: string | undefined) => data.inputs.find((i) => i.id === id)?.label;
  return (
    <SetupForm intent="race" label="Save race link" busyLabel="Saving…" errors={errors}>
      <SelectField name="race" label="Race" choices={choicesOf(data.races)} defaultValue={v("race")} error={errors.race} />
      {data.formRace ? (
        <>
          <SelectField name="course" label="Course" choices={choicesOf(data.formRace.courses)} defaultValue={v("course")} error={errors.course} />
          <SelectField
            name="start_group"
            label="Start group"
            choices={choicesOf(data.formRace.startGroups)}
            defaultValue={v("start_group")}
            error={errors.start_group}
          />
        </>
      ) : null}
      <fieldset className="setup-group">
        <legend>Races by option</legend>
        <p className="hint">
          When one form registers several distances, choose the field that asks which, then each option&apos;s race. An option without a race enters the person
          in the form&apos;s race above. With a field where several options may be ticked, the person gets a racer in the race of each option they chose.
        </p>
        <SelectField
          name="option_field"
          label="Field that chooses the race"
          choices={[none, ...data.choiceFields.map((f) => ({ value: f.id, label: f.label }))]}
          defaultValue={v("option_field")}
          error={errors.option_field}
        />
        {field?.options.map((option) => {
          const key = `option.${option.id}`;
          const parts = data.optionRaces[data.values[`${key}.race`] ?? ""];
          return (
            <fieldset className="setup-group" key={option.id}>
              <legend>{option.label}</legend>
              <SelectField
                name={`${key}.race`}
                label={`Race for ${option.label}`}
                choices={choicesOf(data.races)}
                defaultValue={v(`${key}.race`)}
                error={errors[`${key}.race`]}
              />
              {parts ? (
                <>
                  <SelectField
                    name={`${key}.course`}
                    label={`Course for ${option.label}`}
                    choices={choicesOf(parts.courses)}
                    defaultValue={v(`${key}.course`)}
                    error={errors[`${key}.course`]}
                  />
                  <SelectField
                    name={`${key}.start_group`}
                    label={`Start group for ${option.label}`}
                    choices={choicesOf(parts.startGroups)}
                    defaultValue={v(`${key}.start_group`)}
                    error={errors[`${key}.start_group`]}
                  />
                </>
              ) : null}
            </fieldset>
          );
        })}
      </fieldset>
      <fieldset className="setup-group">
        <legend>Racer fields</legend>
        <p className="hint">Which answer fills each racer field. Fields are found by their type and caption; choose another, or Not filled.</p>
        {data.targets.map((target) => (
          <SelectField
            key={target.key}
            name={`map.${target.key}`}
            label={target.label}
            hint={data.defaults[target.key] ? `Found: ${inputLabel(data.defaults[target.key]) ?? ""}` : "None found"}
            choices={[{ value: "", label: "Not filled" }, ...data.inputs.map((i) => ({ value: i.id, label: i.label }))]}
            defaultValue={v(`map.${target.key}`)}
            error={errors[`map.${target.key}`]}
          />
        ))}
      </fieldset>
    </SetupForm>
  );
}
