//! API errors: every error answer is `{"error": "..."}` with the status of docs/contract.md's contract.
//!
//! Invariants: a 401 carries `WWW-Authenticate: Bearer`; a 429 (a full thread queue, or
//! `runtime.max_turns_in_flight` reached) carries `Retry-After` in seconds; a 500 says what
//! failed in plain words (`StoreError::in_plain_words`, `IntakeError::Failed`'s `plain`) and
//! the error itself goes to the log, so no answer carries SQL, a panic message or a type name.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};

use crate::store::{Refusal, StoreError};
use crate::turn::intake::IntakeError;

/// Seconds a 429 asks the caller to wait before retrying (with the same `message_id`: the
/// refused message was not kept). Queues drain turn by turn, so the wait is short; a retry
/// that comes too early just gets another 429.
const RETRY_AFTER_SECONDS: u32 = 1;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    TooLarge(String),
    #[error("{0}")]
    TooManyRequests(String),
    #[error("{0}")]
    Unavailable(String),
    /// A peer Donna depends on (Discord) failed.
    #[error("{0}")]
    BadGateway(String),
    #[error("{0}")]
    Internal(String),
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::BadGateway(_) => StatusCode::BAD_GATEWAY,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status_code());
        match self {
            ApiError::Unauthorized(_) => {
                response.insert_header(("WWW-Authenticate", "Bearer"));
            }
            ApiError::TooManyRequests(_) => {
                response.insert_header(("Retry-After", RETRY_AFTER_SECONDS.to_string()));
            }
            _ => {}
        }
        response.json(serde_json::json!({ "error": self.to_string() }))
    }
}

impl ApiError {
    /// A 400 carrying a typed validation error's text (`.map_err(ApiError::bad_request)`).
    pub fn bad_request(error: impl std::fmt::Display) -> Self {
        ApiError::BadRequest(error.to_string())
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> Self {
        if let StoreError::Refused { reason, kind } = error {
            return match kind {
                Refusal::NotFound => ApiError::NotFound(reason),
                Refusal::Conflict => ApiError::Conflict(reason),
                Refusal::Invalid => ApiError::BadRequest(reason),
            };
        }
        // The detail (SQL, a panic message) is for the log; the answer says what failed.
        tracing::error!(%error, "store error in the API");
        ApiError::Internal(format!("{}; nothing was changed", error.in_plain_words()))
    }
}

impl From<IntakeError> for ApiError {
    fn from(error: IntakeError) -> Self {
        match error {
            IntakeError::Invalid(reason) => ApiError::BadRequest(reason),
            IntakeError::NoThread(id) => ApiError::NotFound(format!("no thread {id}")),
            IntakeError::Busy => ApiError::TooManyRequests(error.to_string()),
            IntakeError::ShuttingDown => ApiError::Unavailable("shutting down".into()),
            IntakeError::Parked => ApiError::Conflict(error.to_string()),
            IntakeError::Failed { plain, detail } => {
                tracing::error!(reason = %detail, "turn failed");
                ApiError::Internal(plain)
            }
        }
    }
}
