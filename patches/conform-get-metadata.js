var metadataScope = Symbol('conform metadata scope');
class MetadataTarget {
  constructor(id, name, scope) {
    this.id = id;
    this.name = name;
    this.errorId = "".concat(id, "-error");
    this.descriptionId = "".concat(id, "-description");
    // What the literal's getters closed over; a symbol key, so not one of the metadata's names.
    this[metadataScope] = scope;
  }
  get defaultValue() {
    var initialValue = this.initialValue;
    if (typeof initialValue === 'string') {
      return initialValue;
    }
    if (Array.isArray(initialValue)) {
      return initialValue[0];
    }
  }
  get defaultOptions() {
    var initialValue = this.initialValue;
    if (typeof initialValue === 'string') {
      return [initialValue];
    }
    if (Array.isArray(initialValue) && initialValue.every(item => typeof item === 'string')) {
      return initialValue;
    }
  }
  get defaultChecked() {
    if (this.initialValue === 'on') {
      return true;
    }
  }
  get initialValue() {
    var { state, name } = this[metadataScope];
    return state.initialValue[name];
  }
  get value() {
    var { state, name } = this[metadataScope];
    return state.value[name];
  }
  get errors() {
    var { state, name } = this[metadataScope];
    return state.error[name];
  }
  get key() {
    var { state, name } = this[metadataScope];
    return state.key[name];
  }
  get valid() {
    var { state, name } = this[metadataScope];
    return state.valid[name];
  }
  get dirty() {
    var { state, name } = this[metadataScope];
    return state.dirty[name];
  }
  get allErrors() {
    var { state, name } = this[metadataScope];
    if (name === '') {
      return state.error;
    }
    var result = {};
    for (var [key, error] of Object.entries(state.error)) {
      if (isPrefix(key, name)) {
        result[key] = error;
      }
    }
    return result;
  }
  get getFieldset() {
    var { context, subjectRef, stateSnapshot, name } = this[metadataScope];
    return () => new Proxy({}, {
      get(target, key, receiver) {
        if (typeof key === 'string') {
          return getFieldMetadata(context, subjectRef, stateSnapshot, name, key);
        }
        return Reflect.get(target, key, receiver);
      }
    });
  }
}
function getMetadata(context, subjectRef, stateSnapshot) {
  var name = arguments.length > 3 && arguments[3] !== undefined ? arguments[3] : '';
  var id = name ? "".concat(context.getFormId(), "-").concat(name) : context.getFormId();
  var state = context.getState();
  return new Proxy(new MetadataTarget(id, name, { context, subjectRef, stateSnapshot, state, name }), {
    get(target, key, receiver) {
      // We want to minize re-render by identifying whether the field is used in a callback only
      // but there is no clear way to know if it is accessed during render or not
      // if the stateSnapshot is not the latest, then it must be accessed in a callback
      if (state === stateSnapshot) {
        switch (key) {
          case 'id':
          case 'errorId':
          case 'descriptionId':
            updateSubjectRef(subjectRef, 'formId');
            break;
          case 'key':
          case 'initialValue':
          case 'value':
          case 'valid':
          case 'dirty':
            updateSubjectRef(subjectRef, key, 'name', name);
            break;
          case 'errors':
          case 'allErrors':
            updateSubjectRef(subjectRef, 'error', key === 'errors' ? 'name' : 'prefix', name);
            break;
        }
      }
      return Reflect.get(target, key, receiver);
    }
  });
}
