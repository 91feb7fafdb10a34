"""The value sets of spec section 4 (and the ones the product adds), validated in the database by CHECK constraints."""

from enum import StrEnum

from app.core.permissions import EmployeeType, Role

__all__ = ["EmployeeType", "Role"]


class ProjectStatus(StrEnum):
    planning = "planning"
    in_progress = "in_progress"
    review = "review"
    completed = "completed"
    cancelled = "cancelled"


# A project in one of these is over: the client cannot cancel it and no time is logged on it until staff reopen it.
PROJECT_FINAL_STATUSES = frozenset({ProjectStatus.completed, ProjectStatus.cancelled})


class ProjectType(StrEnum):
    web_development = "web_development"
    mobile_app = "mobile_app"
    cloud_migration = "cloud_migration"
    consulting = "consulting"


class MilestoneStatus(StrEnum):
    pending = "pending"
    in_progress = "in_progress"
    completed = "completed"


class OrganizationSize(StrEnum):
    small = "small"  # 1-50
    medium = "medium"  # 51-250
    large = "large"  # 251-1000
    enterprise = "enterprise"  # 1000+


class ProductCategory(StrEnum):
    service_package = "service_package"
    consultation = "consultation"
    software_license = "software_license"
    training = "training"


class BillingPeriod(StrEnum):
    one_time = "one_time"
    hourly = "hourly"
    monthly = "monthly"
    yearly = "yearly"


class InvoiceStatus(StrEnum):
    draft = "draft"
    pending = "pending"
    paid = "paid"
    void = "void"  # issued, then cancelled by staff with a reason: the number stays, nothing is owed (ADR 0078)


class MeetingStatus(StrEnum):
    # unconfirmed: booked signed out, holding its slot until the booker confirms from the mailed link (or it expires)
    unconfirmed = "unconfirmed"
    scheduled = "scheduled"
    completed = "completed"
    cancelled = "cancelled"


class InquiryStatus(StrEnum):
    new = "new"
    in_progress = "in_progress"
    resolved = "resolved"
    closed = "closed"


class InquiryPriority(StrEnum):
    low = "low"
    medium = "medium"
    high = "high"
    urgent = "urgent"


class OrderStatus(StrEnum):
    pending = "pending"
    completed = "completed"
    cancelled = "cancelled"
    refunded = "refunded"


class PaymentStatus(StrEnum):
    pending = "pending"
    succeeded = "succeeded"
    failed = "failed"
    refunded = "refunded"


class ApplicationStatus(StrEnum):
    new = "new"
    reviewing = "reviewing"
    interview = "interview"
    offer = "offer"
    rejected = "rejected"


class SubscriberStatus(StrEnum):
    pending = "pending"  # waiting for the double opt-in link
    confirmed = "confirmed"
    unsubscribed = "unsubscribed"


class OutboxStatus(StrEnum):
    pending = "pending"
    sent = "sent"
    failed = "failed"  # gave up after the last retry; kept for the operator
