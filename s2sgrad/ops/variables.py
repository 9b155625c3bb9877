"""Variables in one import: ``tf.Variable`` and its ops (``variable_ops``), ``tf.get_variable`` and
``tf.variable_scope`` (``variable_scope``)."""
from .variable_ops import (
                           GLOBAL_VARIABLES,
                           LOCAL_VARIABLES,
                           MODEL_VARIABLES,
                           TRAINABLE_VARIABLES,
                           Variable,
                           assign,
                           assign_add,
                           assign_sub,
                           global_variables,
                           global_variables_initializer,
                           initialize_all_variables,
                           local_variables,
                           local_variables_initializer,
                           model_variables,
                           trainable_variables,
                           variables_initializer,
)
from .variable_scope import (
                           AUTO_REUSE,
                           VariableScope,
                           get_local_variable,
                           get_variable,
                           get_variable_scope,
                           no_regularizer,
                           variable_scope,
)

__all__ = ["GLOBAL_VARIABLES", "LOCAL_VARIABLES", "MODEL_VARIABLES", "TRAINABLE_VARIABLES", "Variable", "assign",
           "assign_add", "assign_sub", "global_variables", "global_variables_initializer", "initialize_all_variables",
           "local_variables", "local_variables_initializer", "model_variables", "trainable_variables",
           "variables_initializer", "AUTO_REUSE", "VariableScope", "get_local_variable", "get_variable",
           "get_variable_scope", "no_regularizer", "variable_scope"]
